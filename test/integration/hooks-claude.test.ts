// Real Claude Code in print mode, offline against a fake Anthropic server, with Gatehouse's hook
// installed by `gatehouse hook install claude-code --project`: each tool call is a request in a
// headless core (its own process), decided there by a person or a rule.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { prepareClaude, type PreparedClaude } from '../support/claude';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../support/fake-anthropic-server';

const CLI = resolve('bin/gatehouse.mjs');
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function fresh(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startCore(home: string, settings: Record<string, unknown> = {}) {
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const core: CoreProcess = await startCoreProcess(home, { GATEHOUSE_TOKEN: 'hooks-test-token' });
  cleanup.push(() => core.stop('SIGKILL'));
  const url = new URL(core.url);
  const api = new HttpApi(url.origin, 'hooks-test-token');
  await api.pair(new URLSearchParams(url.hash.slice(1)).get('pair')!, 'test person');
  return api;
}

async function pendingOne(api: HttpApi) {
  await expect.poll(async () => (await api.call('listApprovals', {})).items.length, { timeout: 30_000 }).toBe(1);
  return (await api.call('listApprovals', {})).items[0]!;
}

describe('Claude Code with gatehouse hook', () => {
  let model: FakeAnthropicServer;
  let claude: PreparedClaude;
  let home: string;
  let project: string;

  beforeAll(async () => {
    if (!existsSync('out/main/cli.js')) throw new Error('not built: run `npx electron-vite build` first');
    model = await startFakeAnthropicServer();
    claude = prepareClaude(model.url);
  });
  afterAll(async () => {
    claude.cleanup();
    await model.close();
  });

  const setup = async (settings: Record<string, unknown> = {}) => {
    home = fresh('gatehouse-hooks-home-');
    project = fresh('gatehouse-hooks-project-');
    const installed = spawnSync(process.execPath, [CLI, 'hook', 'install', 'claude-code', '--project', project], { encoding: 'utf8' });
    expect(installed.stdout).toMatch(/installed/);
    return startCore(home, settings);
  };
  const run = (prompt: string) => claude.run(prompt, project, { GATEHOUSE_HOME: home });

  it('a Bash call waits in Gatehouse as a terminal session; allowed, the command runs', async () => {
    const api = await setup();
    model.script({ name: 'Bash', input: { command: 'echo ran > ran.txt', description: 'write a file' } });
    const finished = run('run it');
    const pending = await pendingOne(api);
    expect(pending).toMatchObject({ agentId: 'claude-code', kind: 'execute', command: 'echo ran > ran.txt' });
    const session = (await api.call('listSessions', {})).find((s) => s.sessionId === pending.sessionId);
    expect(session?.via).toEqual({ kind: 'terminal', name: 'Claude Code' });
    await api.call('vote', { requestId: pending.requestId, optionId: 'allow' });
    const done = await finished;
    expect(done.code).toBe(0);
    expect(readFileSync(join(project, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('denied, the command does not run and the model is told why', async () => {
    const api = await setup();
    model.script({ name: 'Bash', input: { command: 'echo ran > ran.txt' } });
    const finished = run('run it');
    const pending = await pendingOne(api);
    await api.call('vote', { requestId: pending.requestId, optionId: 'deny' });
    const done = await finished;
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
    expect(done.result?.permission_denials?.map((d) => d.tool_name)).toEqual(['Bash']);
    expect(JSON.stringify(model.toolResults.at(-1)?.content)).toMatch(/Gatehouse denied this \(a person\)/);
  });

  it('a Write shows its diff against the file on disk', async () => {
    const api = await setup();
    const file = join(project, 'notes.txt');
    writeFileSync(file, 'old line\n');
    model.script({ name: 'Write', input: { file_path: file, content: 'new line\n' } });
    const finished = run('write it');
    const pending = await pendingOne(api);
    const detail = await api.call('approvalDetail', { requestId: pending.requestId });
    expect(detail.diffs[0]).toMatchObject({ path: file, oldText: 'old line\n', newText: 'new line\n' });
    await api.call('vote', { requestId: pending.requestId, optionId: 'deny' });
    await finished;
    expect(readFileSync(file, 'utf8')).toBe('old line\n');
  });

  it('an allow rule decides without a person', async () => {
    await setup({
      rules: [{ id: 'mkdir-ok', action: 'allow', agent: 'claude-code', command: 'mkdir ruled', commandMatch: 'exact' }],
    });
    model.script({ name: 'Bash', input: { command: 'mkdir ruled' } });
    const done = await run('run it');
    expect(done.code).toBe(0);
    expect(existsSync(join(project, 'ruled'))).toBe(true);
  });
});
