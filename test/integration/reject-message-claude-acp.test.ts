// claude-agent-acp over ACP, offline against a fake Anthropic server: what it does with a person's
// words sent with a reject. It reads only the selected option id of the reply (its Claude is told
// "User refused permission to run tool"), not its `_meta`; but it takes a message into its running
// turn (`_session/steering`), so the words are sent there and its model hears them in the same turn,
// shown in the transcript as the person's. The next prompt is then what the person typed.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prepareClaudeAcp, type PreparedClaudeAcp } from '../support/claude-acp';
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from '../support/fake-anthropic-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const WORDS = 'Keep build/, remove dist/ instead.';

describe('a reject with words, to claude-agent-acp', () => {
  let model: FakeAnthropicServer;
  let claude: PreparedClaudeAcp;
  let gh: TestGatehouse;
  let folder: string;
  let sessionId: string;

  beforeAll(async () => {
    model = await startFakeAnthropicServer();
    claude = prepareClaudeAcp(model.url);
  });
  afterAll(async () => {
    claude.cleanup();
    await model.close();
  });
  beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-claude-acp-work-')));
    gh = await startGatehouse({ agents: { claude: claude.agent } });
    sessionId = (await gh.api.call('createSession', { agentId: 'claude', cwd: folder })).sessionId;
  });
  afterEach(async () => {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const text = (messages: unknown[]): string => JSON.stringify(messages);

  it('the words are steered into the running turn: its model hears them before the turn ends', async () => {
    model.script({ name: 'Bash', input: { command: 'mkdir build', description: 'make build' } });
    const turn = gh.api.call('prompt', { sessionId, text: 'set up' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('execute');
    const reject = approval.options.find((o) => o.kind === 'reject_once')!;
    const before = model.streamed.length;
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: reject.optionId,
      message: `${WORDS}\u001b[0m\u202e`,
    });
    expect(await turn).toMatchObject({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'build'))).toBe(false);

    // The refusal its Claude hears is the adapter's own sentence: the reply's `_meta` is not read.
    const refusal = model.toolResults.at(-1);
    expect(refusal?.isError).toBe(true);
    expect(JSON.stringify(refusal?.content)).toMatch(/refused permission/i);
    expect(JSON.stringify(refusal?.content)).not.toContain(WORDS);
    // Steered into the turn: a later model call of the same turn carries the words (the call that
    // carries the refusal is made before the steered message is read: it waits for the permission).
    const inTurn = model.streamed.slice(before).map(text);
    expect(inTurn.some((call) => call.includes(`Rejected by the person: ${WORDS}`))).toBe(true);
    const transcript = await gh.api.call('getTranscript', { sessionId });
    const users = transcript.entries.filter((e) => e.kind === 'user');
    expect(users.map((u) => (u as { text: string }).text).join('\n')).toContain(
      `Rejected by the person: ${WORDS}`,
    );

    // Heard once: the next prompt is what the person typed.
    const next = model.streamed.length;
    await gh.api.call('prompt', { sessionId, text: 'go on' });
    // Each call carries the conversation so far: the steered words at most once, never again at
    // the head of the new prompt (the turn may make more than one call).
    const calls = model.streamed.slice(next).map(text);
    expect(calls.join('\n')).toContain('go on');
    for (const call of calls) {
      expect(call.split(`Rejected by the person: ${WORDS}`).length - 1).toBeLessThanOrEqual(1);
      expect(call).not.toContain(`${WORDS}\\n\\ngo on`);
    }

    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))?.message).toBe(WORDS);
  });
});
