// Pairing over HTTP: the bearer token alone registers an API client, never a person's; a one-time
// secret a person hands over pairs a client; every change is audited without its secrets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientRegistry, PAIRING_CODE_TTL_MS } from '../../src/main/core/approvals/clients';
import { openStoreEngine } from '../../src/main/core/store';
import { ApiError } from '../../src/renderer/src/api/api-error';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof ApiError ? e.status : Promise.reject(e)),
  );

describe('pairing', () => {
  let gh: TestGatehouse | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });

  it('a pairing secret pairs one client once; a used or unknown one is refused (403) and audited', async () => {
    gh = await startGatehouse({});
    const secret = gh.pairingSecret();
    const phone = new HttpApi(gh.server.url, gh.token);
    const paired = await phone.pair(secret, 'phone');
    expect(paired.clientId).toMatch(/^browser-/);
    const again = new HttpApi(gh.server.url, gh.token);
    await expect(status(again.pair(secret, 'thief'))).resolves.toBe(403);
    await expect(status(again.pair('A'.repeat(43), 'guess'))).resolves.toBe(403);
    const listed = await phone.call('listClients', {});
    expect(listed.find((c) => c.clientId === paired.clientId)).toMatchObject({
      paired: true,
      label: 'phone',
    });
    await gh.core.store.flush();
    expect((await gh.core.store.events({ type: 'pairing_refused' })).map((e) => e.payload)).toEqual(
      [
        { label: 'guess', surface: 'browser', reason: 'unknown or used' },
        { label: 'thief', surface: 'browser', reason: 'unknown or used' },
      ],
    );
  });

  it('a browser pairing again with its proven pairing replaces it; a claimed id replaces nothing', async () => {
    gh = await startGatehouse({});
    const browser = new HttpApi(gh.server.url, gh.token);
    const first = await browser.pair(gh.pairingSecret(), 'Browser (Linux)');
    // A restart later the same browser opens the new printed link, its pairing in its headers.
    const again = new HttpApi(gh.server.url, gh.token);
    again.actAs(first);
    const second = await again.pair(gh.pairingSecret(), 'Browser (Linux)');
    const paired = () =>
      gh!.api
        .call('listClients', {})
        .then((all) => all.filter((c) => c.label === 'Browser (Linux)'));
    expect((await paired()).map((c) => c.clientId)).toEqual([second.clientId]);
    // Someone who saw the id on the wire but holds no token pairs a device of their own.
    const thief = new HttpApi(gh.server.url, gh.token);
    thief.actAs({ clientId: second.clientId, clientToken: 'not-its-token' });
    await thief.pair(gh.pairingSecret(), 'Browser (Linux)');
    expect((await paired()).map((c) => c.clientId)).toContain(second.clientId);
    expect(await paired()).toHaveLength(2);
    await gh.core.store.flush();
    const pairings = (await gh.core.store.events({ type: 'client_paired' })).map(
      (e) => e.payload as Record<string, unknown>,
    );
    expect(pairings.filter((p) => 'replaces' in p)).toEqual([
      {
        clientId: second.clientId,
        label: 'Browser (Linux)',
        surface: 'browser',
        replaces: first.clientId,
      },
    ]);
  });

  it('serving on the network is not chosen over HTTP: server.host beyond loopback is refused and audited', async () => {
    gh = await startGatehouse({});
    const before = (await gh.api.call('getSettings', {})).settings;
    const exposed = { ...before, server: { ...before.server, host: '0.0.0.0' } };
    await expect(status(gh.api.call('updateSettings', { settings: exposed }))).resolves.toBe(403);
    expect(gh.core.savedSettings().server.host).toBe('127.0.0.1');
    await gh.core.store.flush();
    const [refused] = await gh.core.store.events({ type: 'settings_refused' });
    expect(refused?.payload).toMatchObject({
      key: 'server.host',
      from: '127.0.0.1',
      to: '0.0.0.0',
      by: { clientId: gh.api.clientId, transport: 'http' },
    });
    // Back to (or staying on) this machine is no widening.
    const local = { ...before, server: { ...before.server, host: 'localhost' } };
    await expect(status(gh.api.call('updateSettings', { settings: local }))).resolves.toBe(200);
  });

  it('only a paired client makes pairing codes and revokes; the bearer token or a registration does not', async () => {
    gh = await startGatehouse({});
    const bare = await gh.client({ register: false });
    const registered = await gh.client({ paired: false, label: 'script' });
    for (const caller of [bare, registered]) {
      await expect(status(caller.call('createPairingCode', {}))).resolves.toBe(403);
      await expect(
        status(caller.call('revokeClient', { clientId: gh.api.clientId! })),
      ).resolves.toBe(403);
    }
    const code = await gh.api.call('createPairingCode', {});
    expect(code.path).toBe(`/#pair=${code.secret}`);
    expect(code.expiresAt - gh.core.now()).toBeLessThanOrEqual(PAIRING_CODE_TTL_MS);
    const laptop = new HttpApi(gh.server.url, gh.token);
    const { clientId } = await laptop.pair(code.secret, 'laptop');
    // The laptop makes codes in turn, then is revoked: from then on it speaks anonymously.
    await expect(status(laptop.call('createPairingCode', {}))).resolves.toBe(200);
    await gh.api.call('revokeClient', { clientId });
    await expect(status(laptop.call('createPairingCode', {}))).resolves.toBe(403);
    expect((await gh.api.call('listClients', {})).some((c) => c.clientId === clientId)).toBe(false);
  });

  it('registration, pairing, codes and revocation are audited with ids, never secrets', async () => {
    gh = await startGatehouse({});
    const code = await gh.api.call('createPairingCode', {});
    const other = new HttpApi(gh.server.url, gh.token);
    const paired = await other.pair(code.secret, 'tablet');
    const script = await gh.client({ paired: false, label: 'script' });
    await gh.api.call('revokeClient', { clientId: paired.clientId });
    await gh.core.store.flush();
    const events = await gh.core.store.events({ limit: 1000 });
    const types = events.map((e) => e.type);
    for (const type of [
      'client_registered',
      'client_paired',
      'pairing_code_created',
      'client_revoked',
    ]) {
      expect(types).toContain(type);
    }
    expect(events.find((e) => e.type === 'client_revoked')!.payload).toMatchObject({
      clientId: paired.clientId,
      label: 'tablet',
      by: gh.api.clientId,
    });
    expect(events.find((e) => e.type === 'client_registered')!.payload).toMatchObject({
      clientId: script.clientId,
      label: 'script',
    });
    const text = JSON.stringify(events);
    expect(text).not.toContain(code.secret);
    expect(text).not.toContain(paired.clientToken);
  });

  it('an API client cannot register as the dialog, the tray or an editor', async () => {
    gh = await startGatehouse({});
    for (const surface of ['dialog', 'tray', 'notification', 'link', 'editor']) {
      const response = await fetch(`${gh.server.url}/api/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gh.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ surface }),
      });
      expect(response.status, surface).toBe(400);
    }
  });

  it('registration is rate-limited: the 11th within a minute is 429 with Retry-After', async () => {
    gh = await startGatehouse({});
    const register = () =>
      fetch(`${gh!.server.url}/api/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gh!.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ surface: 'api' }),
      });
    // startGatehouse's own clients pair, so all ten registrations are the test's.
    for (let i = 0; i < 10; i++) expect((await register()).status).toBe(200);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { name: string } }).error.name).toBe(
      'TooManyRequests',
    );
  });
});

describe('paired clients in the store', () => {
  it('outlive a restart of the core; a revoked one stays revoked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pairing-'));
    try {
      const path = join(dir, 'gatehouse.db');
      let store = openStoreEngine({ path });
      let clients = new ClientRegistry({ store, paired: store.pairedClients() });
      const kept = clients.pair(
        clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null).secret,
        'kept',
        'browser',
      )!;
      const gone = clients.pair(
        clients.issuePairingSecret(PAIRING_CODE_TTL_MS, null).secret,
        'gone',
        'browser',
      )!;
      clients.revoke(gone.clientId, kept.clientId);
      await store.close();

      store = openStoreEngine({ path });
      clients = new ClientRegistry({ store, paired: store.pairedClients() });
      expect(clients.identify(kept.clientId, kept.clientToken)).toMatchObject({
        paired: true,
        label: 'kept',
      });
      expect(clients.identify(gone.clientId, gone.clientToken)).toBeNull();
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
