import { describe, expect, it } from 'vitest';
import {
  ClientRegistry,
  MAX_UNPAIRED_CLIENTS,
  PAIRING_CODE_TTL_MS,
  PRESENCE_MS,
  UNPAIRED_TTL_MS,
} from './clients';
import type { PairedClientRecord } from '../store/paired-clients';
import { RateLimit } from '../../server/rate-limit';

function registry() {
  let now = 1_000_000;
  const audited: { type: string; payload: Record<string, unknown> }[] = [];
  const rows: PairedClientRecord[] = [];
  const store = {
    pairedClients: () => rows,
    savePairedClient: (r: PairedClientRecord) => void rows.push(r),
    revokePairedClient: (id: string, at: number) => {
      const row = rows.find((r) => r.clientId === id);
      if (row) row.revokedAt = at;
    },
  };
  const clients = new ClientRegistry({
    now: () => now,
    store,
    paired: rows,
    audit: (type, payload) => audited.push({ type, payload }),
  });
  /** A browser paired with a fresh pairing secret. */
  const pairBrowser = (label: string) =>
    clients.pair(clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null).secret, label, 'browser')!;
  const advance = (ms: number) => (now += ms);
  return { clients, audited, rows, store, advance, now: () => now, pairBrowser };
}

describe('client registry', () => {
  it('a device that pairs again in the name of its proven pairing replaces it: one device, one record', () => {
    const r = registry();
    const code = () => r.clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null).secret;
    const first = r.clients.pair(code(), 'Browser (Linux)', 'browser')!;
    const other = r.clients.pair(code(), 'Phone', 'browser')!;
    // After a restart the browser opens the new printed link, presenting the pairing it holds.
    const again = r.clients.pair(code(), 'Browser (Linux)', 'browser', first.clientId)!;
    const listed = r.clients.list().map((c) => c.clientId);
    expect(listed).toEqual([other.clientId, again.clientId]);
    expect(r.clients.identify(first.clientId, first.clientToken)).toBeNull();
    expect(r.rows.find((row) => row.clientId === first.clientId)?.revokedAt).toBe(r.now());
    expect(r.audited.at(-1)).toEqual({
      type: 'client_paired',
      payload: {
        clientId: again.clientId,
        label: 'Browser (Linux)',
        surface: 'browser',
        replaces: first.clientId,
      },
    });
    // What replaces is only ever a paired, non-local client; a secret that fails replaces nothing.
    r.clients.registerLocal('desktop', 'dialog', 'Desktop');
    const unpaired = r.clients.register('api', 'script');
    r.clients.pair(code(), 'x', 'browser', 'desktop');
    r.clients.pair(code(), 'y', 'browser', unpaired.clientId);
    expect(r.clients.pair('A'.repeat(43), 'z', 'browser', other.clientId)).toBeNull();
    expect(r.clients.isRegistered('desktop')).toBe(true);
    expect(r.clients.isRegistered(unpaired.clientId)).toBe(true);
    expect(r.clients.isRegistered(other.clientId)).toBe(true);
  });

  it('where the server listens is kept for the pairing links and audited', () => {
    const r = registry();
    expect(r.clients.servedAddress()).toBeNull();
    r.clients.announceServer({
      host: '0.0.0.0',
      port: 7878,
      networkUrls: ['http://192.168.1.20:7878'],
    });
    expect(r.clients.servedAddress()).toEqual({
      host: '0.0.0.0',
      port: 7878,
      networkUrls: ['http://192.168.1.20:7878'],
    });
    expect(r.audited).toEqual([
      {
        type: 'server_listening',
        payload: {
          host: '0.0.0.0',
          port: 7878,
          network: true,
          networkUrls: ['http://192.168.1.20:7878'],
        },
      },
    ]);
  });

  it('a pairing secret works once, until it expires; only its hash and the token hash are kept', () => {
    const r = registry();
    const { secret } = r.clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const paired = r.clients.pair(secret, 'phone', 'browser')!;
    expect(r.clients.identify(paired.clientId, paired.clientToken)).toMatchObject({ paired: true });
    expect(r.clients.pair(secret, 'again', 'browser')).toBeNull();
    const late = r.clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null).secret;
    r.advance(PAIRING_CODE_TTL_MS);
    expect(r.clients.pair(late, 'late', 'browser')).toBeNull();
    expect(r.audited.map((a) => a.type)).toEqual([
      'pairing_code_created',
      'client_paired',
      'pairing_refused',
      'pairing_code_created',
      'pairing_refused',
    ]);
    const everything = JSON.stringify([r.audited, r.rows]);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(paired.clientToken);
  });

  it('a registered client is proven but not paired, and is no voter', () => {
    const r = registry();
    const api = r.clients.register('api', 'script');
    expect(r.clients.identify(api.clientId, api.clientToken)).toMatchObject({ paired: false });
    expect(r.clients.identify(api.clientId, 'wrong')).toBeNull();
    expect(r.clients.voterIds()).toEqual([]);
  });

  it('voters are the paired clients present: seen lately or listening, and the desktop', () => {
    const r = registry();
    r.clients.registerLocal('desktop', 'dialog', 'desktop');
    const a = r.pairBrowser('a');
    const b = r.pairBrowser('b');
    expect(r.clients.voterIds().sort()).toEqual([a.clientId, b.clientId, 'desktop'].sort());
    const close = r.clients.streamOpened(b.clientId);
    r.advance(PRESENCE_MS + 1);
    expect(r.clients.voterIds().sort()).toEqual([b.clientId, 'desktop'].sort());
    close();
    r.advance(PRESENCE_MS + 1);
    expect(r.clients.voterIds()).toEqual(['desktop']);
    r.clients.identify(a.clientId, a.clientToken);
    expect(r.clients.voterIds().sort()).toEqual([a.clientId, 'desktop'].sort());
  });

  it('paired clients outlive a restart, absent until seen; a revoked one does not come back', () => {
    const r = registry();
    const a = r.pairBrowser('a');
    const b = r.pairBrowser('b');
    expect(r.clients.revoke(b.clientId, a.clientId)).toBe(true);
    const restarted = new ClientRegistry({ now: r.now, store: r.store, paired: r.rows });
    expect(restarted.voterIds()).toEqual([]);
    expect(restarted.identify(a.clientId, a.clientToken)).toMatchObject({
      paired: true,
      label: 'a',
    });
    expect(restarted.identify(b.clientId, b.clientToken)).toBeNull();
    expect(restarted.voterIds()).toEqual([a.clientId]);
  });

  it('unpaired clients are bounded (the least recently seen goes) and expire after a day unseen', () => {
    const r = registry();
    const first = r.clients.register('api');
    r.advance(1);
    const second = r.clients.register('api');
    for (let i = 2; i < MAX_UNPAIRED_CLIENTS; i++) r.clients.register('api');
    r.advance(1);
    r.clients.identify(first.clientId, first.clientToken);
    r.clients.register('api');
    expect(r.clients.list()).toHaveLength(MAX_UNPAIRED_CLIENTS);
    expect(r.clients.identify(second.clientId, second.clientToken)).toBeNull();
    expect(r.clients.identify(first.clientId, first.clientToken)).not.toBeNull();
    r.advance(UNPAIRED_TTL_MS + 1);
    expect(r.clients.identify(first.clientId, first.clientToken)).toBeNull();
    expect(r.clients.list()).toHaveLength(0);
  });

  it('the desktop cannot be revoked', () => {
    const r = registry();
    r.clients.registerLocal('desktop', 'dialog', 'desktop');
    expect(r.clients.revoke('desktop', null)).toBe(false);
  });

  it('rate limit: N per window, then the seconds to wait', () => {
    let now = 0;
    const limit = new RateLimit(2, 60_000, () => now);
    expect([limit.take(), limit.take(), limit.take()]).toEqual([0, 0, 60]);
    now = 59_000;
    expect(limit.take()).toBe(1);
    now = 60_000;
    expect(limit.take()).toBe(0);
  });
});
