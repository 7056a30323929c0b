// The editor snippets in the README run as written: each one's command line, with the checkout's
// folder for `/path/to/gatehouse`, starts `gatehouse acp` in front of the agent `gemini` (here a
// scripted agent), and its session shows in Gatehouse as running in that editor.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { startEditor } from '../support/scripted-editor';

const TOKEN = 'snippet-test-token';

/** Each code block of the README's editor section, as the command line it configures. */
function snippets(): { name: string; argv: string[] }[] {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Use Gatehouse from your editor');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const found: { name: string; argv: string[] }[] = [];
  for (const [, language, body] of section.matchAll(/```(json|lua)\n([\s\S]*?)```/g)) {
    if (language === 'json') {
      const servers = (
        JSON.parse(body!) as { agent_servers: Record<string, { command: string; args: string[] }> }
      ).agent_servers;
      const [name, server] = Object.entries(servers)[0]!;
      found.push({ name: `json: ${name}`, argv: [server.command, ...server.args] });
    } else {
      const list = /default = \{([^}]*)\}/.exec(body!)![1]!;
      found.push({
        name: 'lua: CodeCompanion',
        argv: [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!),
      });
    }
  }
  return found;
}

describe('the README editor snippets', () => {
  let home: string;
  let folder: string;
  let core: CoreProcess;
  let api: HttpApi;

  beforeAll(async () => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
    home = mkdtempSync(join(tmpdir(), 'gatehouse-snippets-'));
    folder = mkdtempSync(join(tmpdir(), 'gatehouse-snippets-work-'));
    const agent = scriptedAgentLaunch({
      prompts: [[{ type: 'text', text: 'hello from the agent' }]],
    });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          gemini: { command: agent.command, args: agent.args, env: agent.env, sandbox: 'off' },
        },
      }),
    );
    core = await startCoreProcess(home, { GATEHOUSE_TOKEN: TOKEN });
    api = new HttpApi(new URL(core.url).origin, TOKEN);
  });
  afterAll(async () => {
    await core.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('there are three: Zed, JetBrains and CodeCompanion', () => {
    expect(snippets().map((s) => s.name)).toEqual([
      'json: Gemini (Gatehouse)',
      'json: Gemini (Gatehouse)',
      'lua: CodeCompanion',
    ]);
  });

  it.each(snippets())('$name starts the agent behind Gatehouse', async ({ argv }) => {
    const [command, ...args] = argv.map((part) => part.replace('/path/to/gatehouse', resolve('.')));
    expect(command).toBe('node');
    const editor = startEditor({
      command: command!,
      args,
      env: { ...process.env, GATEHOUSE_HOME: home },
      cwd: folder,
      name: 'snippet-editor',
    });
    try {
      await editor.initialize();
      const sessionId = await editor.newSession(folder);
      expect((await editor.prompt(sessionId, 'hi')).stopReason).toBe('end_turn');
      const listed = await api.call('listSessions', {});
      expect(listed.some((s) => s.via?.name === 'snippet-editor' && s.agentId === 'gemini')).toBe(
        true,
      );
    } finally {
      await editor.close();
    }
  });
});
