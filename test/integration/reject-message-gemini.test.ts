// The real Gemini CLI over ACP, offline: what it does with a person's words sent with a reject.
// Gemini reads only the selected option id of a reply: the `_meta` words never reach its model,
// which is told only that the tool "was canceled by the user" and goes on with its turn. The words
// reach the model with the person's next prompt, at its head, as the transcript shows it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeModelServer } from '../support/fake-model-server';
import type { TestGatehouse } from '../support/gatehouse';
import { geminiSessionPerTest } from '../support/gemini-suite';

const WORDS = 'Keep build/, remove dist/ instead.';

describe('a reject with words, to the real Gemini CLI over ACP', () => {
  let model: FakeModelServer;
  let gh: TestGatehouse;
  let folder: string;
  let sessionId: string;

  geminiSessionPerTest('gatehouse-gemini-words-', (setup) => {
    ({ model, gh, folder, sessionId } = setup);
  });

  /** The text of every model call's contents from `from` on, one string per streamed call. */
  const streamedSince = (from: number): string[] =>
    model.requests
      .slice(from)
      .filter((r) => r.kind === 'stream')
      .map((r) => JSON.stringify((r.body as { contents?: unknown }).contents ?? null));

  it("the model's next call in the turn has no words; the person's next prompt leads with them", async () => {
    model.enqueue({
      functionCalls: [{ name: 'run_shell_command', args: { command: 'rm -rf build' } }],
      finalText: 'Understood.',
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'clean up' });
    const approval = await gh.nextApproval();
    const reject = approval.options.find((o) => o.kind === 'reject_once')!;
    const before = model.requests.length;
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: reject.optionId,
      message: `${WORDS}\u001b[0m\u200b`,
    });
    expect(await turn).toMatchObject({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'build'))).toBe(false);

    // Dropped: Gemini answers its model at once with the cancellation alone.
    const inTurn = streamedSince(before);
    expect(inTurn.length).toBeGreaterThan(0);
    expect(inTurn.join('\n')).toMatch(/canceled by the user/);
    expect(inTurn.join('\n')).not.toContain(WORDS);

    // Delivered: the person's next prompt carries the words first.
    model.enqueue({ finalText: 'Removing dist/ then.' });
    const next = model.requests.length;
    await gh.api.call('prompt', { sessionId, text: 'go on' });
    const sent = streamedSince(next);
    expect(sent[0]).toContain(`Rejected by the person: ${WORDS}\\n\\ngo on`);

    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))?.message).toBe(WORDS);
    const transcript = await gh.api.call('getTranscript', { sessionId });
    expect(transcript.entries.find((e) => e.kind === 'decision')).toMatchObject({
      outcome: 'rejected',
      message: WORDS,
    });
  });
});
