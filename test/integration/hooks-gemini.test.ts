// Real Gemini CLI, non-interactive under yolo (where its own approvals are off and the hook is the
// only gate), offline against a fake model server, with Gatehouse's hook installed by
// `gatehouse hook install gemini --project`: each tool call is decided in a headless core.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FunctionCallSpec,
} from '../support/fake-model-server';
import { prepareGemini, resolveGeminiEntry, type PreparedGemini } from '../support/gemini';
import { allowExactly, hookSuite, pendingOne, writeDiffedThenDenied } from '../support/hook-core';

const suite = hookSuite('gemini');
const { setup } = suite;

describe('Gemini CLI with gatehouse hook', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;

  beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({
      modelUrl: model.url,
      settings: {
        security: { folderTrust: { enabled: false }, auth: { selectedType: 'gemini-api-key' } },
      },
    });
  });
  afterAll(async () => {
    gemini.cleanup();
    await model.close();
  });

  const run = (call: FunctionCallSpec): Promise<number | null> => {
    model.enqueue({ functionCalls: [call] });
    const child = spawn(
      process.execPath,
      [resolveGeminiEntry(), '-p', 'do it', '--approval-mode', 'yolo'],
      {
        cwd: suite.project,
        env: { ...gemini.env, GATEHOUSE_HOME: suite.home },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );
    suite.cleanup.push(() => void child.kill('SIGKILL'));
    return new Promise((resolve) => child.once('close', resolve));
  };

  it('a shell call waits in Gatehouse as a terminal session; allowed, the command runs', async () => {
    const api = await setup();
    const finished = run({ name: 'run_shell_command', args: { command: 'echo ran > ran.txt' } });
    const pending = await pendingOne(api);
    expect(pending).toMatchObject({
      agentId: 'gemini-cli',
      kind: 'execute',
      command: 'echo ran > ran.txt',
    });
    const session = (await api.call('listSessions', {})).find(
      (s) => s.sessionId === pending.sessionId,
    );
    expect(session?.via).toEqual({ kind: 'terminal', name: 'Gemini CLI' });
    await api.call('vote', { requestId: pending.requestId, optionId: 'allow' });
    await finished;
    expect(readFileSync(join(suite.project, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it("denied with the person's words: the model's next request carries them, cleaned", async () => {
    const api = await setup();
    const finished = run({ name: 'run_shell_command', args: { command: 'rm -rf build' } });
    const pending = await pendingOne(api);
    await api.call('vote', {
      requestId: pending.requestId,
      optionId: 'deny',
      message: 'Keep build/\u001b[2K; clean dist/ instead.\u202e',
    });
    await finished;
    const told = JSON.stringify(model.lastFunctionResponse()?.response);
    expect(told).toContain('Rejected by the person: Keep build/; clean dist/ instead.');
    // No escape (JSON writes it \u001b), no bidi control, and not Gatehouse's generated reason.
    expect(told).not.toMatch(/\\u001b|\u202e|Gatehouse denied/);
  });

  it('denied, the command does not run and the model is told why', async () => {
    const api = await setup();
    const finished = run({ name: 'run_shell_command', args: { command: 'echo ran > ran.txt' } });
    const pending = await pendingOne(api);
    await api.call('vote', { requestId: pending.requestId, optionId: 'deny' });
    await finished;
    expect(existsSync(join(suite.project, 'ran.txt'))).toBe(false);
    expect(JSON.stringify(model.lastFunctionResponse()?.response)).toMatch(
      /Gatehouse denied this \(a person\)/,
    );
  });

  it('a write_file shows its diff against the file on disk', async () => {
    const api = await setup();
    const file = join(suite.project, 'notes.txt');
    writeFileSync(file, 'old line\n');
    const finished = run({ name: 'write_file', args: { file_path: file, content: 'new line\n' } });
    await writeDiffedThenDenied(api, file, finished);
  });

  it('an allow rule decides without a person', async () => {
    await setup(allowExactly('gemini-cli', 'mkdir-ok', 'mkdir ruled'));
    await run({ name: 'run_shell_command', args: { command: 'mkdir ruled' } });
    expect(existsSync(join(suite.project, 'ruled'))).toBe(true);
  });
});
