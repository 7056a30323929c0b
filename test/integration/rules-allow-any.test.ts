// An allow rule that matches any request takes the confirmation Bypass takes, and the core holds
// to it: a client with the token (an agent that found it) cannot save one in a single quiet call,
// over the rule route or by sending a whole settings file, while its own request waits; every
// refusal is in the audit, and a confirmed save says what it allowed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/renderer/src/api/api-error';
import type { Rule } from '../../src/shared/rules';
import type { Settings } from '../../src/shared/settings';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const run = (command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId: 'sh', kind: 'execute', title: command, rawInput: { command } },
  options: [
    { optionId: 'go', name: 'Go', kind: 'allow_once' },
    { optionId: 'stop', name: 'Stop', kind: 'reject_once' },
  ],
});

let session: ScriptedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call was not refused'),
    (error: ApiError) => error,
  );

describe('an allow rule that matches any request', () => {
  it('is refused over HTTP without the confirmation, whole settings included; confirmed, it is saved and audited', async () => {
    session = await startScriptedSession({ prompts: [[run('npm test')]] });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const asked = await gh.nextApproval();
    // The hostile caller: the bearer token only, not a paired person's client.
    const token = await gh.client({ paired: false });

    const allowAll: Rule = { id: 'allow-all', action: 'allow' };
    const byRoute = await refusal(token.call('saveRule', { ruleId: allowAll.id, rule: allowAll }));
    expect(byRoute).toMatchObject({ status: 403 });
    expect(byRoute.message).toContain('allows every request from any agent in any folder');
    const wildcard: Rule = { id: 'any-command', action: 'allow', command: '*', agent: 's' };
    expect(
      await refusal(token.call('saveRule', { ruleId: wildcard.id, rule: wildcard })),
    ).toMatchObject({ status: 403 });

    const { settings } = await token.call('getSettings', {});
    const bySettings = await refusal(
      token.call('updateSettings', {
        settings: { ...settings, rules: [...settings.rules, allowAll] },
      }),
    );
    expect(bySettings).toMatchObject({ status: 403 });
    expect(bySettings.message).toContain('rule "allow-all" allows every request');

    // Nothing changed: no rule, nothing on disk, and the request still waits for a person.
    expect(await gh.api.call('listRules', {})).toEqual([]);
    const file = join(gh.home, 'settings.json');
    const onDisk = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Settings) : null;
    expect(onDisk?.rules ?? []).toEqual([]);
    expect((await gh.api.call('listApprovals', {})).items.map((a) => a.requestId)).toEqual([
      asked.requestId,
    ]);

    await gh.core.store.flush();
    const refused = await gh.core.store.events({ type: 'rule_refused' });
    expect(refused.map((e) => (e.payload as { ruleId: string }).ruleId).sort()).toEqual([
      'allow-all',
      'any-command',
    ]);
    const [settingsRefused] = await gh.core.store.events({ type: 'settings_change_refused' });
    expect(settingsRefused?.payload).toMatchObject({
      rules: [{ ruleId: 'allow-all', reach: 'every request from any agent in any folder' }],
    });

    // The editor's preview names the reach before the save, from the same judgement.
    const preview = await gh.api.call('previewRule', { rule: allowAll, limit: 1 });
    expect(preview.allowsAny).toBe('every request from any agent in any folder');
    const narrow = await gh.api.call('previewRule', {
      rule: { id: 'n', action: 'allow', command: 'npm test' },
      limit: 1,
    });
    expect(narrow.allowsAny).toBeNull();

    // Confirmed, as a person confirms it in the editor: saved, in force, and the audit says so.
    const resolved = gh.waitForEvent('permission_resolved', (e) => e.requestId === asked.requestId);
    await gh.api.call('saveRule', { ruleId: allowAll.id, rule: allowAll, confirmAllowAny: true });
    expect((await resolved).decider).toEqual({ type: 'rule', ruleId: 'allow-all' });
    await turn;
    await gh.core.store.flush();
    const [saved] = await gh.core.store.events({ type: 'rule_saved' });
    expect(saved?.payload).toMatchObject({
      ruleId: 'allow-all',
      confirmedAllowAny: 'every request from any agent in any folder',
    });
    expect(await gh.core.store.verifyChain()).toMatchObject({ ok: true });
  });
});
