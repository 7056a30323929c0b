import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CANCEL_VOTE_SENTINEL,
  MultiClientPermissionMediator,
  type PermissionMediatorEvent,
} from '../mediator';
import { session } from '../../../../test/support/pipeline-harness';
import { pendingApproval } from '../safety/pending-approval.test-support';
import { PendingQueue, type PendingView } from './pending';

/** The mediator as the pipeline builds it, the queue reading it, and requests issued with views. */
function holder(emit: (event: PermissionMediatorEvent) => void = () => {}) {
  const mediator = new MultiClientPermissionMediator<PendingView>('first-responder', {
    emit: (_sessionId, event) => emit(event),
    lateVote: () => {},
    votersForSession: () => [],
  });
  const queue = new PendingQueue(mediator);
  let issued = 0;
  const ask = (sessionId = 's1', promptId = 'turn-1') => {
    const requestId = `req-${++issued}`;
    const approval = pendingApproval({
      requestId,
      sessionId,
      agentId: 'coder',
      agentName: 'Coder',
      cwd: '/work/project',
      toolCall: {
        toolCallId: requestId,
        kind: 'edit',
        title: `Write ${requestId}.txt`,
        locations: [{ path: `/work/project/${requestId}.txt` }],
        content: [],
      },
      issuedAt: 1_000,
      expiresAt: 61_000,
    });
    const view: PendingView = {
      approval,
      displayed: false,
      judged: { session: session({ sessionId }), whole: approval },
    };
    const decided = mediator.request(
      { requestId, sessionId, promptId, allowedOptionIds: ['yes', 'no'], issuedAtMs: 1_000 },
      60_000,
      undefined,
      view,
    );
    return { requestId, view, decided };
  };
  const vote = (requestId: string, optionId: string) =>
    mediator.vote({ requestId, optionId, fromLoopback: true, receivedAtMs: 2_000 });
  return { mediator, queue, ask, vote };
}

const ids = (approvals: Array<{ requestId: string }>) => approvals.map((a) => a.requestId);

describe('the requests waiting for a person, held once by the mediator', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are listed, summarised and judged in arrival order, across sessions', () => {
    const { queue, ask } = holder();
    const order = [ask('s1'), ask('s2'), ask('s1')].map((r) => r.requestId);
    expect(ids(queue.list())).toEqual(order);
    expect(queue.judged().map(([requestId]) => requestId)).toEqual(order);
    const { items, total } = queue.summaries(2);
    expect(ids(items)).toEqual(order.slice(0, 2));
    expect(total).toBe(3);
  });

  it('are counted per session from the same entries, whichever way each one ends', async () => {
    const { mediator, queue, ask, vote } = holder();
    const voted = ask('s1');
    const withdrawn = ask('s1');
    ask('s1', 'turn-2');
    ask('s1');
    // The second session's requests outlive the timeout that ends the last of the first's.
    for (const { requestId } of [ask('s2'), ask('s2')]) mediator.extendTimeout(requestId, 60_000);
    expect([queue.countFor('s1'), queue.countFor('s2'), queue.size]).toEqual([4, 2, 6]);

    vote(voted.requestId, 'yes');
    expect(queue.countFor('s1')).toBe(3);
    mediator.withdraw(withdrawn.requestId);
    expect(queue.countFor('s1')).toBe(2);
    mediator.cancelForPrompt('s1', 'turn-2');
    expect(queue.countFor('s1')).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(queue.countFor('s1')).toBe(0);
    expect(queue.countFor('s2')).toBe(2);
    mediator.forgetSession('s2');
    expect([queue.countFor('s2'), queue.size, queue.list()]).toEqual([0, 0, []]);
    // A request issued after the others ended is counted from zero, not from stale counts.
    ask('s1');
    expect([queue.countFor('s1'), queue.size]).toEqual([1, 1]);
  });

  it('update changes what clients are shown, on the view the pipeline keeps', () => {
    const { queue, ask } = holder();
    const { requestId, view } = ask();
    const tally = { quorum: 2, votesNeeded: 1, voters: 3, perOption: { yes: 1, no: 0 } };
    const shown = queue.update(requestId, { tally, expiresAt: 90_000 });
    expect(shown).toMatchObject({ requestId, tally, expiresAt: 90_000 });
    expect(queue.get(requestId)).toBe(shown);
    expect(view.approval).toBe(shown);
    expect(queue.update('req-unknown', { expiresAt: 1 })).toBeUndefined();
  });

  it('markDisplayed marks the request the pipeline will audit as displayed', () => {
    const { queue, ask } = holder();
    const { requestId, view } = ask();
    expect(queue.markDisplayed(requestId)).toBe(true);
    expect(view.displayed).toBe(true);
    expect(queue.markDisplayed('req-unknown')).toBe(false);
  });

  const endings: Array<[string, (h: ReturnType<typeof holder>, requestId: string) => unknown]> = [
    ['a vote', (h, id) => h.vote(id, 'yes')],
    ['a voter’s cancel', (h, id) => h.vote(id, CANCEL_VOTE_SENTINEL)],
    ['a withdrawal', (h, id) => h.mediator.withdraw(id)],
    ['a cancelled turn', (h) => h.mediator.cancelForPrompt('s1')],
    ['a closed session', (h) => h.mediator.forgetSession('s1')],
    ['the timeout', () => vi.advanceTimersByTimeAsync(60_000)],
  ];

  it.each(endings)(
    'one ended by %s is gone from every view, with no removal call',
    async (_, end) => {
      const h = holder();
      const { queue, ask } = h;
      const ended = ask('s1');
      const other = ask('s2');
      // Outlives the timeout that ends the first.
      h.mediator.extendTimeout(other.requestId, 60_000);
      queue.markDisplayed(ended.requestId);
      await end(h, ended.requestId);
      await ended.decided;

      expect(queue.get(ended.requestId)).toBeUndefined();
      expect(ids(queue.list())).toEqual([other.requestId]);
      expect(queue.judged().map(([requestId]) => requestId)).toEqual([other.requestId]);
      expect(queue.summaries(10)).toMatchObject({
        items: [{ requestId: other.requestId }],
        total: 1,
      });
      expect([queue.countFor('s1'), queue.size]).toEqual([0, 1]);
      // What the pipeline kept still says what was shown, for the audit.
      expect(ended.view.displayed).toBe(true);
    },
  );

  it('a listener told of the resolution already finds the request gone', () => {
    const seen: Array<{ listed: string[]; count: number }> = [];
    const h = holder((event) => {
      if (event.type === 'permission_resolved') {
        seen.push({ listed: ids(h.queue.list()), count: h.queue.countFor(event.sessionId) });
      }
    });
    const { requestId } = h.ask();
    const kept = h.ask();
    h.vote(requestId, 'no');
    expect(seen).toEqual([{ listed: [kept.requestId], count: 1 }]);
  });

  it('a client cannot bring an ended request back by updating or displaying it', async () => {
    const h = holder();
    const { requestId, decided } = h.ask();
    h.vote(requestId, 'yes');
    await decided;
    expect(h.queue.update(requestId, { expiresAt: Number.MAX_SAFE_INTEGER })).toBeUndefined();
    expect(h.queue.markDisplayed(requestId)).toBe(false);
    expect([h.queue.list(), h.queue.size, h.queue.countFor('s1')]).toEqual([[], 0, 0]);
    // A late vote is answered as such; it is not pending again.
    expect(h.vote(requestId, 'no')).toEqual({ kind: 'already_resolved', resolvedOptionId: 'yes' });
    expect(h.queue.get(requestId)).toBeUndefined();
  });
});
