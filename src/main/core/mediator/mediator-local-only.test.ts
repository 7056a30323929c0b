import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PermissionVoteInput } from '.';
import { makeHarness, record, state, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('local-only policy', () => {
  it('refuses a non-loopback voter with remote_not_allowed and keeps waiting', async () => {
    const h = makeHarness('local-only');
    const r = record();
    const p = h.request(r, 60_000);

    expect(
      h.mediator.vote(
        vote(r.requestId, 'allow', { clientId: 'a', fromLoopback: false, identityProven: true }),
      ),
    ).toEqual({ kind: 'forbidden', reason: 'remote_not_allowed' });
    expect(await state(p)).toBe('pending');
    expect(h.eventsOfType('permission_forbidden')).toEqual([
      expect.objectContaining({
        requestId: r.requestId,
        policy: 'local-only',
        reason: 'remote_not_allowed',
        clientId: 'a',
      }),
    ]);
  });

  it('a loopback voter resolves, decided by local-only-loopback', async () => {
    const h = makeHarness('local-only');
    const r = record();
    const p = h.request(r, 60_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'remote', fromLoopback: false }));

    expect(
      h.mediator.vote(vote(r.requestId, 'reject', { clientId: 'desk', fromLoopback: true })),
    ).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'reject',
    });
    await expect(p).resolves.toEqual({
      kind: 'option',
      optionId: 'reject',
      decidedBy: { reason: 'local-only-loopback', clientIds: ['desk'] },
    });
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'local-only-loopback',
      forbidden: [{ clientId: 'remote', reason: 'remote_not_allowed' }],
    });
  });

  it('accepts an anonymous loopback voter', async () => {
    const h = makeHarness('local-only');
    const r = record();
    const p = h.request(r, 60_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { fromLoopback: true }))).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'allow',
    });
    expect(await p).toMatchObject({ kind: 'option', decidedBy: { clientIds: [] } });
  });

  it('fails closed on a loopback flag that is truthy but not true', async () => {
    const h = makeHarness('local-only');
    const r = record();
    const p = h.request(r, 60_000);
    const forged = {
      ...vote(r.requestId, 'allow'),
      fromLoopback: 'true',
    } as unknown as PermissionVoteInput;
    expect(h.mediator.vote(forged)).toEqual({ kind: 'forbidden', reason: 'remote_not_allowed' });
    expect(await state(p)).toBe('pending');
  });

  it('identity proof does not substitute for loopback', () => {
    const h = makeHarness('local-only');
    const r = record({ originatorClientId: 'a' });
    void h.request(r, 60_000);
    expect(
      h.mediator.vote(
        vote(r.requestId, 'allow', { clientId: 'a', identityProven: true, fromLoopback: false }),
      ),
    ).toEqual({ kind: 'forbidden', reason: 'remote_not_allowed' });
  });
});
