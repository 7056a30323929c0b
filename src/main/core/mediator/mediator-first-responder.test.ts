import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeHarness, record, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('first-responder policy', () => {
  it('first valid vote wins and names its voter as the decider', async () => {
    const h = makeHarness('first-responder');
    const r = record();
    const p = h.request(r, 60_000);

    expect(h.mediator.vote(vote(r.requestId, 'reject', { clientId: 'bob' }))).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'reject',
    });
    await expect(p).resolves.toEqual({
      kind: 'option',
      optionId: 'reject',
      decidedBy: { reason: 'first-responder', clientIds: ['bob'] },
    });
    expect(h.mediator.pendingCount()).toBe(0);
  });

  it('later voters get already_resolved with the winning option', () => {
    const h = makeHarness('first-responder');
    const r = record();
    void h.request(r, 60_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a' }));

    expect(h.mediator.vote(vote(r.requestId, 'reject', { clientId: 'b' }))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'allow',
    });
  });

  it('accepts an anonymous, remote, unproven voter (identity is irrelevant here)', async () => {
    const h = makeHarness('first-responder');
    const r = record();
    const p = h.request(r, 60_000);

    expect(h.mediator.vote(vote(r.requestId, 'allow', { fromLoopback: false }))).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'allow',
    });
    await expect(p).resolves.toEqual({
      kind: 'option',
      optionId: 'allow',
      decidedBy: { reason: 'first-responder', clientIds: [] },
    });
  });

  it('treats an empty client id as anonymous', async () => {
    const h = makeHarness('first-responder');
    const r = record();
    const p = h.request(r, 60_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: '' }));
    const resolution = await p;
    expect(resolution.kind === 'option' && resolution.decidedBy.clientIds).toEqual([]);
  });

  it('emits permission_resolved once on the session channel, and never partial or forbidden events', () => {
    const h = makeHarness('first-responder');
    const r = record({ sessionId: 'chan-7', promptId: 'p1' });
    void h.request(r, 60_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a' }));
    h.mediator.vote(vote(r.requestId, 'reject', { clientId: 'b' }));

    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toEqual({
      sessionId: 'chan-7',
      event: {
        type: 'permission_resolved',
        requestId: r.requestId,
        sessionId: 'chan-7',
        promptId: 'p1',
        resolution: {
          kind: 'option',
          optionId: 'allow',
          decidedBy: { reason: 'first-responder', clientIds: ['a'] },
        },
      },
    });
    expect(h.eventsOfType('permission_partial_vote')).toEqual([]);
    expect(h.eventsOfType('permission_forbidden')).toEqual([]);
  });

  it('audits the decision with reason first-responder and the deciding vote', async () => {
    const h = makeHarness('first-responder');
    const r = record();
    void h.request(r, 60_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a', metadata: { surface: 'tray' } }));

    expect(await h.decisions()).toEqual([
      expect.objectContaining({
        requestId: r.requestId,
        policy: 'first-responder',
        reason: 'first-responder',
        votes: [
          expect.objectContaining({
            clientId: 'a',
            optionId: 'allow',
            metadata: { surface: 'tray' },
          }),
        ],
        forbidden: [],
      }),
    ]);
  });
});
