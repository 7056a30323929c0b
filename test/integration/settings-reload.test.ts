// settings.json edited on disk while Gatehouse runs: what it says is in force without a restart,
// audited as a change from the settings file, and told to every client (settings_changed over SSE).
// A file that does not read as valid settings keeps the last good ones and says why until fixed;
// a save from the UI meanwhile is refused rather than written over the person's edit.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/core';
import { startHttpServer, type RunningServer } from '../../src/main/server/http-server';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import type { GatehouseEvent } from '../../src/shared/contract';
import type { SettingsInput } from '../../src/shared/settings';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let core: Core | undefined;
let server: RunningServer | undefined;
let api: HttpApi | undefined;
let home: string | undefined;
afterEach(async () => {
  api?.close();
  await server?.close();
  await core?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  core = server = api = home = undefined;
});

const FIRST: SettingsInput = {
  agents: { sh: { name: 'Shell', command: '/bin/sh' } },
  approvals: { timeoutSeconds: 300 },
};

async function start(managedSettingsPath?: string) {
  home = mkdtempSync(join(tmpdir(), 'gatehouse-reload-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(FIRST, null, 2));
  core = await createCore({ home, ...(managedSettingsPath ? { managedSettingsPath } : {}) });
  const token = randomBytes(16).toString('hex');
  server = await startHttpServer({ core, token, host: '127.0.0.1', port: 0 });
  api = new HttpApi(server.url, token);
  await api.pair(core.clients.issuePairingSecret(60_000, null).secret, 'browser', 'browser');
  const seen: GatehouseEvent[] = [];
  let wake: (() => void) | null = null;
  api.subscribe((event) => {
    seen.push(event);
    wake?.();
  });
  /** Resolves at the next settings_changed the browser hears (over SSE) after `write`. */
  const changed = async (write: () => void) => {
    const count = seen.filter((e) => e.type === 'settings_changed').length;
    write();
    while (seen.filter((e) => e.type === 'settings_changed').length === count) {
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return seen.filter((e) => e.type === 'settings_changed').at(-1);
  };
  return { home, core, api, changed };
}

/** As an editor saves: a new file renamed over the old one. */
function save(dir: string, text: string) {
  writeFileSync(join(dir, 'settings.json.edit'), text);
  renameSync(join(dir, 'settings.json.edit'), join(dir, 'settings.json'));
}

async function audited(c: Core, type: string): Promise<Json[]> {
  await c.store.flush();
  expect(await c.store.verifyChain()).toMatchObject({ ok: true });
  return (await c.store.events({ type })) as Json[];
}

it('a change on disk is in force at once, audited as from the settings file, and heard over SSE', async () => {
  const gh = await start();
  const next = {
    ...FIRST,
    agents: { ...FIRST.agents, cat: { name: 'Cat', command: '/bin/cat' } },
    approvals: { timeoutSeconds: 60 },
    policy: { permissionStrategy: 'local-only' },
  };
  expect(await gh.changed(() => save(gh.home, JSON.stringify(next)))).toEqual({
    type: 'settings_changed',
    from: 'file',
  });
  const loaded = await gh.api.call('getSettings', {});
  expect(loaded.settings.approvals.timeoutSeconds).toBe(60);
  expect((await gh.api.call('listAgents', {})).map((a) => a.id)).toEqual(['sh', 'cat']);
  expect(gh.core.settings.agents['cat']).toMatchObject({ command: '/bin/cat' });
  // What waits for a restart says so.
  expect(loaded.restartNeeded).toEqual(['policy']);
  expect(loaded.fileProblem).toBeNull();
  const [event] = await audited(gh.core, 'settings_changed');
  expect(event.payload).toMatchObject({
    from: 'settings file',
    restartNeeded: ['policy'],
    changes: {
      approvals: { before: { timeoutSeconds: 300 }, after: { timeoutSeconds: 60 } },
      agents: { after: { cat: { command: '/bin/cat' } } },
    },
  });
  // The file is left as the person wrote it.
  expect(readFileSync(join(gh.home, 'settings.json'), 'utf8')).toBe(JSON.stringify(next));
});

it('a broken file keeps the last good settings and says why; a save meanwhile is refused; fixing it clears the notice', async () => {
  const gh = await start();
  const broken = '{ "agents": { "sh": { "command": "/bin/sh", "env": { "KEY": "sk-secret" } } ';
  await gh.changed(() => save(gh.home, broken));
  let loaded = await gh.api.call('getSettings', {});
  expect(loaded.fileProblem?.problems).toEqual([expect.stringMatching(/^not JSON: /)]);
  // The key in the broken file reaches neither the notice nor the audit.
  expect(JSON.stringify(loaded.fileProblem)).not.toContain('sk-secret');
  expect(loaded.settings.agents['sh']).toMatchObject({ name: 'Shell' });
  const [refused] = await audited(gh.core, 'settings_file_refused');
  expect(refused.payload).toMatchObject({
    from: 'settings file',
    problems: loaded.fileProblem!.problems,
  });
  expect(JSON.stringify(refused.payload)).not.toContain('sk-secret');

  // A schema error names the field.
  await gh.changed(() => save(gh.home, JSON.stringify({ approvals: { timeoutSeconds: 0 } })));
  loaded = await gh.api.call('getSettings', {});
  expect(loaded.fileProblem?.problems).toEqual([
    expect.stringMatching(/^approvals\.timeoutSeconds: /),
  ]);
  expect(loaded.settings.approvals.timeoutSeconds).toBe(300);

  // The UI's save would throw the person's edit away: refused, the file untouched.
  const edit = readFileSync(join(gh.home, 'settings.json'), 'utf8');
  await expect(
    gh.api.call('updateSettings', {
      settings: { ...loaded.settings, desktop: { raiseOnRequest: true, startAtLogin: false } },
    }),
  ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/fix it first/) });
  expect(readFileSync(join(gh.home, 'settings.json'), 'utf8')).toBe(edit);

  await gh.changed(() =>
    save(gh.home, JSON.stringify({ ...FIRST, approvals: { timeoutSeconds: 90 } })),
  );
  loaded = await gh.api.call('getSettings', {});
  expect(loaded.fileProblem).toBeNull();
  expect(loaded.settings.approvals.timeoutSeconds).toBe(90);
});

it('Gatehouse’s own saves are not taken for edits on disk', async () => {
  const gh = await start();
  const loaded = await gh.api.call('getSettings', {});
  await gh.changed(
    () =>
      void gh.api.call('updateSettings', {
        settings: {
          ...loaded.settings,
          approvals: { ...loaded.settings.approvals, timeoutSeconds: 42 },
        },
      }),
  );
  // The write's own echo settles and nothing from the file is audited.
  await gh.changed(() =>
    save(gh.home, readFileSync(join(gh.home, 'settings.json'), 'utf8').replace('42', '43')),
  );
  const changes = await audited(gh.core, 'settings_changed');
  expect(changes.map((e) => e.payload.from ?? 'command')).toEqual(['settings file', 'command']);
});

it('Bypass written on disk under a managed policy that forbids it: not refused, not in force, shown and audited', async () => {
  const admin = mkdtempSync(join(tmpdir(), 'gatehouse-admin-'));
  const managed = join(admin, 'managed-settings.json');
  writeFileSync(managed, JSON.stringify({ allowBypass: false }));
  try {
    const gh = await start(managed);
    const asked = {
      ...FIRST,
      agents: { sh: { ...FIRST.agents!['sh']!, bypassPermissions: true } },
    };
    await gh.changed(() => save(gh.home, JSON.stringify(asked)));
    const view = await gh.api.call('getSettings', {});
    expect(view.fileProblem).toBeNull();
    expect(view.overridden).toEqual([
      { setting: 'agents.sh.bypassPermissions', user: true, managed: false },
    ]);
    expect(view.settings.agents['sh']?.bypassPermissions).toBe(false);
    expect(gh.core.settings.agents['sh']?.bypassPermissions).toBe(false);
    expect(await audited(gh.core, 'settings_file_refused')).toEqual([]);
    expect((await audited(gh.core, 'managed_setting_overridden')).map((e) => e.payload)).toEqual([
      {
        setting: 'agents.sh.bypassPermissions',
        user: true,
        managed: false,
        when: 'reload',
        managedSettings: managed,
      },
    ]);
    // The person's file is left as they wrote it.
    expect(JSON.parse(readFileSync(join(gh.home, 'settings.json'), 'utf8'))).toEqual(asked);
  } finally {
    rmSync(admin, { recursive: true, force: true });
  }
});

it("the history's durability is read at start: changed on disk it waits for a restart and says so, then every commit is synced", async () => {
  const gh = await start();
  const syncs = async () => {
    gh.core.store.recordEvent({ type: 'settings_changed', payload: { probe: true } });
    await gh.core.store.flush();
    return (await gh.core.store.stats()).syncs;
  };
  expect(await syncs()).toBe(0);
  const next = { ...FIRST, history: { durability: 'full' } };
  await gh.changed(() => save(gh.home, JSON.stringify(next)));
  const loaded = await gh.api.call('getSettings', {});
  expect(loaded.restartNeeded).toEqual(['history']);
  expect(loaded.settings.history).toEqual({ durability: 'full' });
  expect(await syncs()).toBe(0);

  await gh.core.close();
  core = await createCore({ home: gh.home });
  gh.core = core;
  expect(core.settings.history.durability).toBe('full');
  expect(await syncs()).toBeGreaterThanOrEqual(1);
});
