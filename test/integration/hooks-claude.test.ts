// Real Claude Code in print mode, offline against a fake Anthropic server, with Gatehouse's hook
// installed by `gatehouse hook install claude-code --project`: each tool call is a request in a
// headless core (its own process), decided there by a person or a rule.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareClaude, type PreparedClaude } from '../support/claude';
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from '../support/fake-anthropic-server';
import { allowExactly, hookSuite, pendingOne, writeDiffedThenDenied } from '../support/hook-core';

const suite = hookSuite('claude-code');
const { setup } = suite;

describe('Claude Code with gatehouse hook', () => {
  let model: FakeAnthropicServer;
  let claude: PreparedClaude;

  beforeAll(async () => {
    model = await startFakeAnthropicServer();
    claude = prepareClaude(model.url);
  });
  afterAll(async () => {
    claude.cleanup();
    await model.close();
  });

  const run = (prompt: string) => claude.run(prompt, suite.project, { GATEHOUSE_HOME: suite.home });

  it('a Bash call waits in Gatehouse as a terminal session; allowed, the command runs', async () => {
    const api = await setup();
    model.script({
      name: 'Bash',
      input: { command: 'echo ran > ran.txt', description: 'write a file' },
    });
    const finished = run('run it');
    const pending = await pendingOne(api);
    expect(pending).toMatchObject({
      agentId: 'claude-code',
      kind: 'execute',
      command: 'echo ran > ran.txt',
    });
    const session = (await api.call('listSessions', {})).find(
      (s) => s.sessionId === pending.sessionId,
    );
    expect(session?.via).toEqual({ kind: 'terminal', name: 'Claude Code' });
    await api.call('vote', { requestId: pending.requestId, optionId: 'allow' });
    const done = await finished;
    expect(done.code).toBe(0);
    expect(readFileSync(join(suite.project, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('denied, the command does not run and the model is told why', async () => {
    const api = await setup();
    model.script({ name: 'Bash', input: { command: 'echo ran > ran.txt' } });
    const finished = run('run it');
    const pending = await pendingOne(api);
    await api.call('vote', { requestId: pending.requestId, optionId: 'deny' });
    const done = await finished;
    expect(existsSync(join(suite.project, 'ran.txt'))).toBe(false);
    expect(done.result?.permission_denials?.map((d) => d.tool_name)).toEqual(['Bash']);
    expect(JSON.stringify(model.toolResults.at(-1)?.content)).toMatch(
      /Gatehouse denied this \(a person\)/,
    );
  });

  it("denied with the person's words: the model's next request carries them, cleaned", async () => {
    const api = await setup();
    model.script({ name: 'Bash', input: { command: 'rm -rf build' } });
    const finished = run('clean up');
    const pending = await pendingOne(api);
    await api.call('vote', {
      requestId: pending.requestId,
      optionId: 'deny',
      message: 'Keep build/\u001b[2K; clean dist/ instead.\u202e',
    });
    const done = await finished;
    expect(done.result?.permission_denials?.map((d) => d.tool_name)).toEqual(['Bash']);
    const told = JSON.stringify(model.toolResults.at(-1)?.content);
    expect(told).toContain('Rejected by the person: Keep build/; clean dist/ instead.');
    // No escape (JSON writes it \u001b), no bidi control, and not Gatehouse's generated reason.
    expect(told).not.toMatch(/\\u001b|\u202e|Gatehouse denied/);
  });

  it('a Write shows its diff against the file on disk', async () => {
    const api = await setup();
    const file = join(suite.project, 'notes.txt');
    writeFileSync(file, 'old line\n');
    model.script({ name: 'Write', input: { file_path: file, content: 'new line\n' } });
    const finished = run('write it');
    await writeDiffedThenDenied(api, file, finished);
  });

  it('an allow rule decides without a person', async () => {
    await setup(allowExactly('claude-code', 'mkdir-ok', 'mkdir ruled'));
    model.script({ name: 'Bash', input: { command: 'mkdir ruled' } });
    const done = await run('run it');
    expect(done.code).toBe(0);
    expect(existsSync(join(suite.project, 'ruled'))).toBe(true);
  });
});
