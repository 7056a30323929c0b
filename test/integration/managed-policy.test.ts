// The administrator's managed policy against a hostile agent and a user who wants it gone: an agent
// that switches itself into Bypass under `allowBypass: false` is set back and audited, a switch to
// Bypass over the API is refused and audited, and a managed rule cannot be deleted, replaced or
// shadowed over HTTP; it keeps deciding. A broken managed file stops the headless start; a user
// setting it forbids does not: the managed value is in force, shown and audited.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/renderer/src/api/api-error';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import type { Rule } from '../../src/shared/rules';
import {
  CLAUDE_MODES,
  scriptedAgentConfig,
  type ScriptStep,
} from '../support/agents/scripted-agent';
import { runNode, startCoreProcess } from '../support/core-process';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { freshDir, pendingOne, type Cleanup } from '../support/steps';
import { databasePath } from '../../src/main/core/store/data-folder';

const NO_RM: Rule = { id: 'no-rm', action: 'deny', command: 'rm', reason: 'company policy' };

function shellRequest(id: string, command: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: { toolCallId: id, kind: 'execute', title: command, rawInput: { command } },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  };
}

/** The error a call ended with (status and message), or a failure when it succeeded. */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the call was not refused');
}

describe('a managed policy under attack', () => {
  const cleanup: Cleanup = [];
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  const managedFile = (json: unknown): string => {
    const file = join(freshDir(cleanup, 'gatehouse-admin-'), 'managed-settings.json');
    writeFileSync(file, JSON.stringify(json));
    return file;
  };
  const events = async (type: string) => {
    await session!.gh.core.store.flush();
    return await session!.gh.core.store.events({ type });
  };

  it('an agent that switches itself into Bypass is set back, audited, and still judged by the managed rule; the API cannot switch it either', async () => {
    const file = managedFile({ rules: [NO_RM], allowBypass: false });
    session = await startScriptedSession(
      {
        name: 'claude-agent-acp',
        modes: CLAUDE_MODES,
        prompts: [
          [
            { type: 'switchMode', modeId: 'bypassPermissions' },
            { type: 'sleep', ms: 500 },
            shellRequest('rm-1', 'rm -rf build'),
            shellRequest('ls-1', 'ls'),
          ],
        ],
      },
      {
        managedSettingsPath: file,
        settings: { rules: [{ id: 'mine', action: 'allow', command: 'rm' }] },
      },
    );
    const { gh, sessionId } = session;

    // As an agent holding the token would: an unpaired client asks for Bypass, then the user does.
    const agentClient = await gh.client({ paired: false });
    for (const api of [agentClient, gh.api]) {
      const refused = await refusal(
        api.call('setSessionMode', { sessionId, mode: 'bypassPermissions' }),
      );
      expect(refused.status).toBe(403);
      expect(refused.message).toContain(file);
    }
    expect(
      await refusal(gh.api.call('setAgentBypass', { agentId: 's', enabled: true })),
    ).toMatchObject({
      status: 403,
    });
    const refusedEvents = await events('managed_policy_refused');
    expect(refusedEvents).toHaveLength(3);
    expect(refusedEvents.map((e) => e.payload)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ by: expect.objectContaining({ paired: false }) }),
        expect.objectContaining({ by: expect.objectContaining({ paired: true }) }),
      ]),
    );
    for (const event of refusedEvents) {
      expect(event.payload).toMatchObject({ what: 'Bypass is not allowed', managedSettings: file });
    }
    expect(
      (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId)?.mode,
    ).toBe('default');

    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    // `ls` is the user's to decide: nothing allows it, so a person is asked.
    const asked = await gh.nextApproval();
    expect(asked.toolCall.title).toBe('ls');
    expect((await events('agent_mode_reset')).map((e) => e.payload)).toContainEqual({
      via: 'mode',
      from: 'bypassPermissions',
      to: 'default',
    });
    await gh.api.call('vote', { requestId: asked.requestId, optionId: 'no' });
    await turn;
    await gh.core.store.flush();
    const [rm] = (await gh.core.store.history({ sessionId, limit: 10 })).items.filter(
      (i) => i.title === 'rm -rf build',
    );
    expect(rm).toMatchObject({
      decider: { type: 'rule', ruleId: 'no-rm', source: 'managed' },
      reply: { outcome: 'selected', optionKind: 'reject_once' },
    });
  });

  it('the user cannot delete, replace or shadow a managed rule over HTTP; nothing changes', async () => {
    const file = managedFile({ rules: [NO_RM] });
    session = await startScriptedSession({ prompts: [] }, { managedSettingsPath: file });
    const { gh } = session;
    const rulesBefore = await gh.api.call('listRules', {});

    const deleted = await refusal(gh.api.call('deleteRule', { ruleId: 'no-rm' }));
    expect(deleted).toMatchObject({ status: 403 });
    expect(deleted.message).toMatch(/"no-rm" is a managed rule and cannot be deleted/);
    const replaced = await refusal(
      gh.api.call('saveRule', { ruleId: 'no-rm', rule: { ...NO_RM, action: 'allow' } }),
    );
    expect(replaced).toMatchObject({ status: 403 });
    const { settings } = await gh.api.call('getSettings', {});
    const shadowed = await refusal(
      gh.api.call('updateSettings', {
        settings: { ...settings, rules: [...settings.rules, { ...NO_RM, action: 'allow' }] },
      }),
    );
    expect(shadowed).toMatchObject({ status: 400 });
    expect(shadowed.message).toMatch(/"no-rm" is the id of a managed rule/);

    expect(await gh.api.call('listRules', {})).toEqual(rulesBefore);
    const view = await gh.api.call('getSettings', {});
    expect(view.managed).toEqual({
      path: file,
      rules: [NO_RM],
      allowedPolicies: null,
      sandbox: null,
      telemetry: false,
      allowBypass: true,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ rules: [NO_RM] });
    expect(
      (await events('managed_policy_refused')).map(
        (e) => (e.payload as { ruleId?: string }).ruleId,
      ),
    ).toEqual(['no-rm', 'no-rm']);
    expect(await events('rule_deleted')).toEqual([]);
    expect(await events('rule_saved')).toEqual([]);
  });

  it('a broken managed file stops the headless start with every problem listed', async () => {
    const file = managedFile({
      rules: [{ id: 'x', action: 'forbid' }],
      allowedPolicies: [],
      telemetry: { otlp: { endpoint: 'ftp://collector' } },
      allowBypas: false,
    });
    const home = freshDir(cleanup, 'gatehouse-home-');
    const started = await runNode(['--import', 'tsx', 'src/main/headless.ts'], {
      GATEHOUSE_HOME: home,
      GATEHOUSE_PORT: '0',
      GATEHOUSE_MANAGED_SETTINGS: file,
    });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(`Gatehouse cannot start: ${file} is not valid:`);
    for (const problem of [
      /- rules\.0\.action: /,
      /- allowedPolicies: /,
      /- telemetry\.otlp\.endpoint: /,
      /- \(top level\): .*allowBypas/,
    ]) {
      expect(started.stderr).toMatch(problem);
    }
    expect(started.stdout).not.toMatch(/Gatehouse is running/);
  });

  it('a user Bypass the policy forbids does not stop the headless start: the session asks, the override is shown and audited', async () => {
    const file = managedFile({ allowBypass: false, allowedPolicies: ['first-responder'] });
    const home = freshDir(cleanup, 'gatehouse-home-');
    const work = realpathSync(freshDir(cleanup, 'gatehouse-work-'));
    // What the user wrote (or an agent left behind): Bypass twice and a policy the administrator
    // does not allow.
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        policy: { permissionStrategy: 'consensus' },
        agents: {
          s: {
            ...scriptedAgentConfig({ prompts: [[shellRequest('ls-1', 'ls')]] }),
            bypassPermissions: true,
            mode: 'bypassPermissions',
          },
        },
      }),
    );
    const core = await startCoreProcess(home, { GATEHOUSE_MANAGED_SETTINGS: file });
    cleanup.push(() => core.stop());
    const fragment = new URLSearchParams(new URL(core.url).hash.slice(1));
    const api = new HttpApi(new URL(core.url).origin, fragment.get('token')!);
    cleanup.push(() => api.close());
    await api.pair(fragment.get('pair')!, 'test', 'api');

    const view = await api.call('getSettings', {});
    expect(view.overridden).toEqual([
      { setting: 'policy.permissionStrategy', user: 'consensus', managed: 'first-responder' },
      { setting: 'agents.s.bypassPermissions', user: true, managed: false },
      { setting: 'agents.s.mode', user: 'bypassPermissions', managed: 'default' },
    ]);
    expect(view.settings.agents['s']).toMatchObject({ bypassPermissions: false, mode: 'default' });
    expect((await api.call('health', {})).policy).toBe('first-responder');
    expect((await api.call('listAgents', {}))[0]).toMatchObject({ id: 's', mode: 'default' });
    // The file keeps what the person wrote: the override is Gatehouse's, not an edit of theirs.
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).agents.s).toMatchObject({
      bypassPermissions: true,
    });

    const { sessionId } = await api.call('createSession', { agentId: 's', cwd: work });
    expect((await api.call('listSessions', {})).find((s) => s.sessionId === sessionId)?.mode).toBe(
      'default',
    );
    const turn = api.call('prompt', { sessionId, text: 'go' });
    // Under Bypass `ls` would be allowed at once; here a person is asked.
    const asked = await pendingOne(api);
    expect(asked.title).toBe('ls');
    await api.call('vote', { requestId: asked.requestId, optionId: 'no' });
    await turn;
    await core.stop();

    const db = new Database(databasePath(home), { readonly: true });
    cleanup.push(() => void db.close());
    const overridden = db
      .prepare(`SELECT payload_json FROM events WHERE type = 'managed_setting_overridden'`)
      .all()
      .map((row) => JSON.parse((row as { payload_json: string }).payload_json) as unknown);
    expect(overridden).toEqual(
      view.overridden.map((o) => ({ ...o, when: 'start', managedSettings: file })),
    );
  });
});
