// Administration over the real HTTP server: every change to what Gatehouse allows is an event in the
// hash chain naming its author; an agent's new command sent over HTTP waits for a code shown only
// where Gatehouse runs; retention saved through the API is shown and prunes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/main/core/approvals/clients';
import { dispatch } from '../../src/main/core/commands/dispatch';
import type { ConfirmLocally } from '../../src/main/core/commands/settings-confirmation';
import { createCore, type Core } from '../../src/main/core/core';
import type { RunningServer } from '../../src/main/server/http-server';
import type { HttpApi } from '../../src/renderer/src/api/http-client';
import { serveCore } from '../support/served-core';
import type { ApiError } from '../../src/renderer/src/api/api-error';
import type { Settings, SettingsInput } from '../../src/shared/settings';
import type { Rule } from '../../src/shared/rules';
import { databasePath } from '../../src/main/core/store/data-folder';

/** JSON read back to assert on: reading a wrong member fails the assertion, not the type check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Running {
  core: Core;
  server: RunningServer;
  home: string;
  api: HttpApi;
  clientId: string;
  /** What the headless terminal would show. */
  terminal: string[];
  /** Raw authenticated request (status codes). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

const BASE: SettingsInput = {
  agents: {
    claude: { name: 'Claude Code', command: 'claude-code-acp', args: [], env: { API_KEY: 'sk-1' } },
  },
  rules: [
    { id: 'no-rm', action: 'deny', toolKind: 'execute', command: 'rm', commandMatch: 'prefix' },
  ],
};

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(
  options: {
    confirm?: 'terminal' | 'none' | ConfirmLocally;
    settings?: SettingsInput;
    now?: () => number;
  } = {},
): Promise<Running> {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-admin-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(options.settings ?? BASE));
  const terminal: string[] = [];
  const confirm = options.confirm ?? 'terminal';
  const confirmLocally: ConfirmLocally | undefined =
    confirm === 'none'
      ? undefined
      : confirm === 'terminal'
        ? (change) => {
            terminal.push(`code ${change.code} for ${change.agents.map((a) => a.id).join(',')}`);
            return { how: 'code' };
          }
        : confirm;
  const core = await createCore({
    home,
    ...(confirmLocally ? { confirmLocally } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const served = await serveCore(core, 'admin test');
  const { server, api, clientId, raw } = served;
  running = {
    core,
    server,
    home,
    api,
    clientId,
    terminal,
    raw,
    async close() {
      await served.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
  return running;
}

/** The newest chained event of a type, after checking the whole chain verifies. */
async function audited(gh: Running, type: string) {
  await gh.core.store.flush();
  expect(await gh.core.store.verifyChain()).toMatchObject({ ok: true });
  const [event] = await gh.core.store.events({ type });
  expect(event, `an audited ${type} event`).toBeDefined();
  return event as { seq: number; payload: Json; agentId: string | null };
}

const onDisk = (gh: Running) =>
  JSON.parse(readFileSync(join(gh.home, 'settings.json'), 'utf8')) as Settings;

const code = (gh: Running) => /code (\d{3}-\d{3})/.exec(gh.terminal[gh.terminal.length - 1]!)![1]!;

describe('administration is audited in the hash chain', () => {
  it('Bypass, rules added, changed and deleted, settings changes and grant revocations each leave a chained event naming the caller', async () => {
    const gh = await start();
    const by = {
      clientId: gh.clientId,
      surface: 'browser',
      transport: 'http',
      identityProven: true,
      paired: false,
    };

    await gh.api.call('setAgentBypass', { agentId: 'claude', enabled: true });
    expect((await audited(gh, 'bypass_changed')).payload).toEqual({
      agentId: 'claude',
      before: false,
      after: true,
      by,
    });

    const allowAll: Rule = { id: 'allow-all', action: 'allow' };
    await gh.api.call('saveRule', { ruleId: 'allow-all', rule: allowAll, confirmAllowAny: true });
    let event = await audited(gh, 'rule_saved');
    expect(event.payload).toMatchObject({
      ruleId: 'allow-all',
      before: null,
      by,
      confirmedAllowAny: 'every request from any agent in any folder',
    });
    expect(event.payload.after).toMatchObject({ id: 'allow-all', action: 'allow' });

    await gh.api.call('saveRule', {
      ruleId: 'allow-all',
      rule: { ...allowAll, toolKind: 'read' },
      confirmAllowAny: true,
    });
    event = await audited(gh, 'rule_saved');
    expect(event.payload.before).toMatchObject({ id: 'allow-all', action: 'allow' });
    expect(event.payload.after).toMatchObject({ id: 'allow-all', toolKind: 'read' });

    await gh.api.call('deleteRule', { ruleId: 'no-rm' });
    expect((await audited(gh, 'rule_deleted')).payload).toMatchObject({
      ruleId: 'no-rm',
      rule: { id: 'no-rm', action: 'deny', command: 'rm' },
      by,
    });

    const current = (await gh.api.call('getSettings', {})).settings;
    await gh.api.call('updateSettings', {
      settings: { ...current, approvals: { timeoutSeconds: 42 } },
    });
    expect((await audited(gh, 'settings_changed')).payload).toEqual({
      changes: {
        approvals: {
          before: { timeoutSeconds: 300, cancelGraceSeconds: 10 },
          after: { timeoutSeconds: 42, cancelGraceSeconds: 10 },
        },
      },
      by,
    });

    const result = await gh.core.grants.remember(
      {
        agentId: 'claude',
        sessionId: 's1',
        sessionCwd: '/work/p',
        toolKind: 'execute',
        command: 'npm test',
      },
      { scope: 'agent' },
    );
    if (!result.ok) throw new Error(result.error);
    await gh.api.call('revokeGrant', { grantId: result.grant.id });
    event = await audited(gh, 'grant_revoked');
    expect(event.payload).toEqual({ grantId: result.grant.id, scope: 'agent', by });
    expect(event.agentId).toBe('claude');
  });

  it('a tampered administrative event breaks verification at its entry', async () => {
    const gh = await start();
    await gh.api.call('deleteRule', { ruleId: 'no-rm' });
    const event = await audited(gh, 'rule_deleted');
    const db = new Database(databasePath(gh.home));
    db.prepare('UPDATE events SET payload_json = ? WHERE seq = ?').run(
      JSON.stringify({ ruleId: 'no-rm', rule: null, by: null }),
      event.seq,
    );
    db.close();
    expect(await gh.core.store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: event.seq,
      reason: expect.stringMatching(/events row was changed/),
    });
  });
});

describe("an agent's command changed over HTTP waits for a local confirmation", () => {
  const withCommand = (settings: Settings, command: string): Settings => ({
    ...settings,
    agents: {
      ...settings.agents,
      claude: { ...settings.agents.claude!, command, args: ['-c', 'id'], env: { API_KEY: 'sk-2' } },
    },
  });

  it('is not applied and audited as pending; a wrong code is refused; the right code applies it, audited', async () => {
    const gh = await start();
    const before = (await gh.api.call('getSettings', {})).settings;
    const put = await gh.raw('PUT', '/api/settings', { settings: withCommand(before, '/bin/sh') });
    expect(put.status).toBe(202);
    const { confirmation } = put.body;
    expect(confirmation).toMatchObject({ agents: ['claude'], how: 'code' });
    expect(put.body.settings.agents.claude.command).toBe('claude-code-acp');
    // Nothing applied: not in force, not saved, not spawned from.
    expect((await gh.api.call('getSettings', {})).settings.agents.claude!.command).toBe(
      'claude-code-acp',
    );
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp');
    expect(onDisk(gh).agents.claude!.command).toBe('claude-code-acp');
    const pending = await audited(gh, 'settings_change_pending');
    expect(pending.payload).toMatchObject({
      changeId: confirmation.id,
      how: 'code',
      agents: [{ id: 'claude', command: '/bin/sh', args: ['-c', 'id'], envNames: ['API_KEY'] }],
      by: { clientId: gh.clientId, transport: 'http' },
    });
    // The code went to the terminal only: not in the answer, not in the audit.
    const shown = code(gh);
    expect(JSON.stringify(put.body)).not.toContain(shown);
    expect(JSON.stringify(pending.payload)).not.toContain(shown);

    const wrong = shown === '000-000' ? '000-001' : '000-000';
    const refused = await gh.raw('POST', '/api/settings/confirm', {
      id: confirmation.id,
      code: wrong,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/wrong code; 4 tries left/);
    expect((await audited(gh, 'settings_change_refused')).payload).toMatchObject({
      changeId: confirmation.id,
      reason: 'wrong code',
      triesLeft: 4,
    });
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp');

    const out = await gh.api.call('confirmSettingsChange', { id: confirmation.id, code: shown });
    expect(out.settings.agents.claude!.command).toBe('/bin/sh');
    expect(gh.core.settings.agents.claude!.command).toBe('/bin/sh');
    expect(onDisk(gh).agents.claude!.command).toBe('/bin/sh');
    expect((await audited(gh, 'settings_change_confirmed')).payload).toMatchObject({
      changeId: confirmation.id,
      agents: ['claude'],
      by: { clientId: gh.clientId, transport: 'http' },
    });
    const changed = (await audited(gh, 'settings_changed')).payload;
    expect(changed.changes.agents.before.claude).toMatchObject({
      command: 'claude-code-acp',
      args: [],
    });
    expect(changed.changes.agents.after.claude).toMatchObject({
      command: '/bin/sh',
      args: ['-c', 'id'],
      env: { API_KEY: expect.stringMatching(/^sha256:[0-9a-f]{16}$/) },
    });
    // Environment values are secrets: names stay, values do not reach the audit.
    expect(JSON.stringify(changed)).not.toMatch(/sk-1|sk-2/);
    // The code is spent.
    const again = await gh.raw('POST', '/api/settings/confirm', {
      id: confirmation.id,
      code: shown,
    });
    expect(again.status).toBe(404);
  });

  it('five wrong codes discard the change', async () => {
    const gh = await start();
    const before = (await gh.api.call('getSettings', {})).settings;
    const { body } = await gh.raw('PUT', '/api/settings', {
      settings: withCommand(before, 'evil'),
    });
    const wrong = code(gh) === '111-111' ? '222-222' : '111-111';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await gh.raw('POST', '/api/settings/confirm', { id: body.confirmation.id, code: wrong }))
          .status,
      );
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    expect((await audited(gh, 'settings_change_discarded')).payload).toMatchObject({
      changeId: body.confirmation.id,
      reason: 'too many wrong codes',
    });
    const late = await gh.raw('POST', '/api/settings/confirm', {
      id: body.confirmation.id,
      code: code(gh),
    });
    expect(late.status).toBe(404);
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp');
  });

  it('a new agent waits too; an ordinary change over HTTP (approvals timeout) applies at once', async () => {
    const gh = await start();
    const before = (await gh.api.call('getSettings', {})).settings;
    const added = await gh.raw('PUT', '/api/settings', {
      settings: { ...before, agents: { ...before.agents, x: { command: 'x', args: [], env: {} } } },
    });
    expect(added.status).toBe(202);
    expect(added.body.confirmation.agents).toEqual(['x']);
    expect(gh.core.settings.agents.x).toBeUndefined();

    const ordinary = await gh.raw('PUT', '/api/settings', {
      settings: { ...before, approvals: { timeoutSeconds: 60 } },
    });
    expect(ordinary.status).toBe(200);
    expect(ordinary.body.confirmation).toBeUndefined();
    expect(gh.core.settings.approvals.timeoutSeconds).toBe(60);
    expect(onDisk(gh).approvals.timeoutSeconds).toBe(60);
    // The pending agent change was made against the old settings: confirming it now would undo
    // the timeout, so it is refused.
    const stale = await gh.raw('POST', '/api/settings/confirm', {
      id: added.body.confirmation.id,
      code: code(gh),
    });
    expect(stale.status).toBe(409);
    expect(gh.core.settings.agents.x).toBeUndefined();
    expect(gh.core.settings.approvals.timeoutSeconds).toBe(60);
  });

  it('the desktop settings window (IPC) applies at once, audited as IPC', async () => {
    const gh = await start();
    const ipc: Caller = {
      clientId: 'desktop',
      identityProven: true,
      paired: true,
      fromLoopback: true,
      surface: 'dialog',
      transport: 'ipc',
    };
    const settings = withCommand(gh.core.savedSettings(), 'claude-code-acp-2');
    const out = await dispatch(gh.core.handlers, 'updateSettings', { settings }, ipc);
    expect(out).toMatchObject({ ok: true, status: 200 });
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp-2');
    expect((await audited(gh, 'settings_changed')).payload.by).toEqual({
      clientId: 'desktop',
      identityProven: true,
      paired: true,
      surface: 'dialog',
      transport: 'ipc',
    });
  });

  it('the desktop dialog confirms without a code; a declined dialog discards', async () => {
    const answers: ((yes: boolean) => void)[] = [];
    const gh = await start({
      confirm: () => ({
        how: 'dialog',
        confirmed: new Promise<boolean>((resolve) => answers.push(resolve)),
      }),
    });
    const before = (await gh.api.call('getSettings', {})).settings;
    const first = await gh.raw('PUT', '/api/settings', { settings: withCommand(before, 'a') });
    expect(first.body.confirmation.how).toBe('dialog');
    const withCode = await gh.raw('POST', '/api/settings/confirm', {
      id: first.body.confirmation.id,
      code: '000-000',
    });
    expect(withCode.status).toBe(403);
    answers[0]!(false);
    expect((await waitForEvent(gh, 'settings_change_discarded')).payload).toMatchObject({
      reason: 'declined in the dialog',
    });
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp');

    await gh.raw('PUT', '/api/settings', { settings: withCommand(before, 'b') });
    answers[1]!(true);
    const changed = await waitForEvent(gh, 'settings_changed');
    expect(changed.payload.confirmedBy).toMatchObject({ surface: 'dialog', transport: 'internal' });
    expect(gh.core.settings.agents.claude!.command).toBe('b');
  });

  it('without a local surface to confirm it, the change is refused and audited', async () => {
    const gh = await start({ confirm: 'none' });
    const before = (await gh.api.call('getSettings', {})).settings;
    await expect(
      gh.api.call('updateSettings', { settings: withCommand(before, '/bin/sh') }),
    ).rejects.toMatchObject({ status: 403 } satisfies Partial<ApiError>);
    expect((await audited(gh, 'settings_change_refused')).payload).toMatchObject({
      agents: ['claude'],
    });
    expect(gh.core.settings.agents.claude!.command).toBe('claude-code-acp');
  });
});

async function waitForEvent(gh: Running, type: string) {
  for (let i = 0; i < 200; i++) {
    await gh.core.store.flush();
    const [event] = await gh.core.store.events({ type });
    if (event) return event as { payload: Json };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${type} event`);
}

describe('retention through the API', () => {
  it('is shown by GET /api/settings as saved, and prunes with it', async () => {
    let now = Date.now();
    const gh = await start({ now: () => now });
    const current = (await gh.api.call('getSettings', {})).settings;
    await gh.api.call('updateSettings', {
      settings: { ...current, retention: { rows: 100, days: 1 } },
    });
    expect((await gh.raw('GET', '/api/settings')).body.settings.retention).toEqual({
      rows: 100,
      days: 1,
    });
    expect(onDisk(gh).retention).toEqual({ rows: 100, days: 1 });
    expect((await audited(gh, 'settings_changed')).payload.changes.retention).toEqual({
      before: {},
      after: { rows: 100, days: 1 },
    });
    // Two days later, what was recorded until now is older than the day kept.
    now += 2 * 86_400_000;
    await gh.api.call('setAgentBypass', { agentId: 'claude', enabled: true });
    const pruned = await gh.core.store.prune();
    expect(pruned.entries).toBeGreaterThan(0);
    expect(await gh.core.store.verifyChain()).toMatchObject({
      ok: true,
      rows: 1,
      checkpoint: { seq: pruned.checkpoint!.seq },
    });
    expect((await gh.core.store.events({})).map((e) => e.type)).toEqual(['bypass_changed']);
  });
});
