import { afterEach, describe, expect, it } from 'vitest';
import { StoreInputError, type StoreEngine } from '.';
import { tempStore } from '../../../../test/support/store';

let store: StoreEngine;
let cleanup: () => Promise<void>;
let now = 1_700_000_000_000;
afterEach(async () => cleanup());

function open() {
  ({ store, cleanup } = tempStore({ now: () => now }));
}

const grant = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  agentId: 'gemini',
  scope: 'session',
  sessionId: 's1',
  toolKind: 'execute',
  commands: [{ argv: ['npm', 'test'], env: {}, writes: [], dynamic: [], match: 'exact' }],
  createdAt: now,
  ...extra,
});

describe('grants', () => {
  it('saves the rules layer grant as given, lists active ones, revokes', async () => {
    open();
    const saved = await store.saveGrant(grant('g1'));
    expect(saved).toMatchObject({
      id: 'g1',
      agentId: 'gemini',
      scope: 'session',
      sessionId: 's1',
      revokedAt: null,
    });
    expect(saved.grant).toEqual(grant('g1'));
    await store.saveGrant(
      grant('g2', {
        agentId: 'claude',
        scope: 'agent',
        sessionId: undefined,
        expiresAt: now + 30 * 60_000,
      }),
    );
    await store.saveGrant(grant('g3', { scope: 'project', projectRoot: '/repo' }));
    expect(store.listGrants().map((g) => g.id)).toEqual(['g1', 'g2', 'g3']);
    expect(store.listGrants({ agentId: 'claude' }).map((g) => g.id)).toEqual(['g2']);

    now += 31 * 60_000; // g2 expired
    expect(store.listGrants().map((g) => g.id)).toEqual(['g1', 'g3']);
    expect(await store.revokeGrant('g1', { reason: 'revoked in settings' })).toBe(true);
    expect(await store.revokeGrant('g1')).toBe(false);
    expect(await store.revokeGrant('nope')).toBe(false);
    expect(store.listGrants().map((g) => g.id)).toEqual(['g3']);
    const all = store.listGrants({ includeInactive: true });
    expect(all.find((g) => g.id === 'g1')).toMatchObject({
      revokedAt: now,
      revokeReason: 'revoked in settings',
    });
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 4 });
  });

  it('refuses a duplicate id and a malformed grant', async () => {
    open();
    await store.saveGrant(grant('g1'));
    await expect(store.saveGrant(grant('g1'))).rejects.toThrow(/UNIQUE/);
    await expect(store.saveGrant({ agentId: '', scope: 'x' })).rejects.toBeInstanceOf(
      StoreInputError,
    );
    const generated = await store.saveGrant({ agentId: 'a', scope: 'agent' });
    expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
