// claude-agent-acp over ACP, offline against a fake Anthropic server: what it does with a person's
// words sent with a reject. It reads only the selected option id; its Claude is told "User refused
// permission to run tool" and goes on with its turn, so the `_meta` words never reach the model in
// that turn. They reach it with the person's next prompt, at its head, as the transcript shows it.
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

  it("the model's next call in the turn has no words; the person's next prompt leads with them", async () => {
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

    // Dropped: the refusal its Claude hears is the adapter's own sentence.
    const refusal = model.toolResults.at(-1);
    expect(refusal?.isError).toBe(true);
    expect(JSON.stringify(refusal?.content)).toMatch(/refused permission/i);
    const inTurn = model.streamed.slice(before).map(text).join('\n');
    expect(inTurn).not.toContain(WORDS);

    // Delivered: the person's next prompt carries the words first.
    const next = model.streamed.length;
    await gh.api.call('prompt', { sessionId, text: 'go on' });
    const sent = model.streamed.slice(next).map(text);
    expect(sent.some((call) => call.includes(`Rejected by the person: ${WORDS}\\n\\ngo on`))).toBe(
      true,
    );

    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))?.message).toBe(WORDS);
  });
});
