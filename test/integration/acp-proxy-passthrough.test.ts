// `gatehouse acp` changes nothing an editor and its agent say to each other: the same session,
// recorded once with the editor talking to the agent directly and once through the proxy, is the
// same traffic line for line — updates, a tool call, reads and a covered write through the
// editor, an extension request and an extension notification both ways.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedAgentLaunch, type ScriptedAgentScript } from '../support/agents/scripted-agent';
import { startCoreProcess } from '../support/core-process';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { cleanupAfterEach } from '../support/steps';

const CLI = resolve('bin/gatehouse.mjs');
const cleanup = cleanupAfterEach();

const SCRIPT: ScriptedAgentScript = {
  prompts: [
    [
      { type: 'text', text: 'Looking at the notes.' },
      {
        type: 'toolCall',
        toolCallId: 'read-1',
        title: 'Read notes.md',
        kind: 'read',
        status: 'completed',
        locations: [{ path: 'notes.md' }],
      },
      { type: 'readFile', path: 'notes.md' },
      { type: 'writeFile', path: 'summary.md', content: '# Summary\n\nAll good.\n', via: 'client' },
      { type: 'raw', method: '_gatehouse_test/ping', params: { nested: { depth: [1, 2, 3] } } },
      { type: 'raw', method: '_gatehouse_test/progress', params: { done: 3 }, notification: true },
      { type: 'text', text: 'Done.' },
    ],
  ],
};

/** One run of the session; every line both ways, session ids made comparable. */
async function record(
  folder: string,
  launch: { command: string; args: string[]; env: NodeJS.ProcessEnv },
) {
  rmSync(join(folder, 'summary.md'), { force: true });
  const editor: ScriptedEditor = startEditor({ ...launch, cwd: folder, name: 'recording-editor' });
  cleanup.push(() => editor.close());
  await editor.initialize();
  const sessionId = await editor.newSession(folder);
  const response = await editor.prompt(sessionId, 'summarize the notes');
  // An extension request from the editor to the agent passes too (the agent answers it unknown).
  await editor.agent.request('_gatehouse_test/editor_ping', { n: 1 }).catch(() => undefined);
  await editor.close();
  const same = (lines: string[]) => lines.map((line) => line.split(sessionId).join('<session>'));
  return {
    sent: same(editor.sent),
    received: same(editor.received),
    response,
    writes: editor.writes,
  };
}

describe('gatehouse acp passes everything else through unchanged', () => {
  beforeAll(() => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
  });

  it('the same session with and without the proxy is the same traffic', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gatehouse-passthrough-'));
    const folder = mkdtempSync(join(tmpdir(), 'gatehouse-passthrough-work-'));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    cleanup.push(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(join(folder, 'notes.md'), 'the notes\n');
    const agent = scriptedAgentLaunch(SCRIPT);
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          scripted: { command: agent.command, args: agent.args, env: agent.env, sandbox: 'off' },
        },
        // The write is covered by a rule, so the proxy lets it through to the editor.
        rules: [{ id: 'edits-here', action: 'allow', toolKind: 'edit', path: '**' }],
      }),
    );
    const core = await startCoreProcess(home);
    cleanup.push(() => core.stop('SIGKILL'));

    const direct = await record(folder, { ...agent, env: { ...process.env, ...agent.env } });
    const proxied = await record(folder, {
      command: process.execPath,
      args: [CLI, 'acp', '--agent', 'scripted'],
      env: { ...process.env, GATEHOUSE_HOME: home },
    });

    expect(direct.response.stopReason).toBe('end_turn');
    expect(direct.writes).toHaveLength(1);
    expect(proxied.writes).toEqual(direct.writes);
    expect(proxied.received).toEqual(direct.received);
    expect(proxied.sent).toEqual(direct.sent);
    // The traffic holds what the test is about, so equality is not the equality of two empty logs.
    const methods = direct.received.map((line) => (JSON.parse(line) as { method?: string }).method);
    expect(methods).toEqual(
      expect.arrayContaining([
        'session/update',
        'fs/read_text_file',
        'fs/write_text_file',
        '_gatehouse_test/ping',
      ]),
    );
    expect(methods).toContain('_gatehouse_test/progress');
  });
});
