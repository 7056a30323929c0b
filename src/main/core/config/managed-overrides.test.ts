import { describe, expect, it } from 'vitest';
import { Settings, type SettingsInput } from '../../../shared/settings';
import {
  auditOverrides,
  checkAgainstManaged,
  managedProblems,
  resolveManaged,
} from './managed-overrides';
import { parseManagedSettings, type ManagedPolicy } from './managed-settings';
import { SettingsError } from './settings-file';

const policy = (json: unknown): ManagedPolicy =>
  parseManagedSettings(JSON.stringify(json), '/admin/managed-settings.json');
const settings = (input: SettingsInput) => Settings.parse(input);

const managed = policy({
  rules: [{ id: 'no-rm', action: 'deny', command: 'rm' }],
  allowedPolicies: ['first-responder', 'designated'],
  allowBypass: false,
});

/** Everything the policy forbids at once: a managed rule's id, two policies, Bypass twice. */
const forbidden = settings({
  rules: [
    { id: 'no-rm', action: 'allow', command: 'rm' },
    { id: 'mine', action: 'allow', command: 'ls' },
  ],
  policy: { permissionStrategy: 'consensus' },
  agents: {
    a: { command: 'x', bypassPermissions: true, policy: 'local-only' },
    b: { command: 'y', mode: 'bypassPermissions' },
    c: { command: 'z', mode: 'acceptEdits', policy: 'designated' },
  },
});

describe('a managed policy over the user settings it forbids', () => {
  it('the managed value wins, and each replacement is named with both values', () => {
    const { settings: inForce, overrides } = resolveManaged(forbidden, managed);
    expect(overrides).toEqual([
      {
        setting: 'rules.no-rm',
        user: 'your rule "no-rm"',
        managed: 'the managed rule "no-rm"',
      },
      { setting: 'policy.permissionStrategy', user: 'consensus', managed: 'first-responder' },
      { setting: 'agents.a.policy', user: 'local-only', managed: 'first-responder' },
      { setting: 'agents.a.bypassPermissions', user: true, managed: false },
      { setting: 'agents.b.mode', user: 'bypassPermissions', managed: 'default' },
    ]);
    expect(inForce.rules.map((r) => r.id)).toEqual(['mine']);
    expect(inForce.policy.permissionStrategy).toBe('first-responder');
    expect(inForce.agents['a']).toMatchObject({
      command: 'x',
      bypassPermissions: false,
      policy: 'first-responder',
    });
    expect(inForce.agents['b']).toMatchObject({ command: 'y', mode: 'default' });
    // What the policy allows is left as the user set it.
    expect(inForce.agents['c']).toEqual(forbidden.agents['c']);
    // The user's settings are not changed in place: the file keeps what the person wrote.
    expect(forbidden.agents['a']!.bypassPermissions).toBe(true);
    expect(forbidden.rules).toHaveLength(2);
  });

  it('an unset policy is the default one, which the list must hold', () => {
    const strict = policy({ allowedPolicies: ['consensus', 'designated'] });
    expect(resolveManaged(settings({}), strict).overrides).toEqual([
      { setting: 'policy.permissionStrategy', user: 'first-responder', managed: 'consensus' },
    ]);
  });

  it('settings inside the policy, or no policy, are the same object, with nothing overridden', () => {
    const inside = settings({ rules: [{ id: 'mine', action: 'allow', command: 'ls' }] });
    expect(resolveManaged(inside, managed)).toEqual({ settings: inside, overrides: [] });
    expect(resolveManaged(inside, managed).settings).toBe(inside);
    expect(resolveManaged(forbidden, null)).toEqual({ settings: forbidden, overrides: [] });
    expect(managedProblems(forbidden, null)).toEqual([]);
  });

  it('sent as a command, the same settings are refused with one line per problem', () => {
    let error: unknown;
    try {
      checkAgainstManaged(forbidden, managed, '/home/u/.gatehouse/settings.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems).toEqual([
      expect.stringMatching(
        /^rules: "no-rm" is the id of a managed rule .*\/admin\/managed-settings\.json/,
      ),
      expect.stringMatching(/^policy\.permissionStrategy: "consensus" is not allowed/),
      expect.stringMatching(
        /^agents\.a\.policy: "local-only" is not allowed.*: one of first-responder, designated$/,
      ),
      expect.stringMatching(/^agents\.a\.bypassPermissions: Bypass is not allowed/),
      expect.stringMatching(/^agents\.b\.mode: bypassPermissions is not allowed/),
    ]);
  });

  it('each override is one audit event naming the setting, both values and the file', () => {
    const recorded: unknown[] = [];
    const store = { recordEvent: (event: unknown) => void recorded.push(event) };
    const { overrides } = resolveManaged(forbidden, managed);
    auditOverrides(store, managed, overrides, 'start');
    expect(recorded).toHaveLength(5);
    expect(recorded[3]).toEqual({
      type: 'managed_setting_overridden',
      payload: {
        setting: 'agents.a.bypassPermissions',
        user: true,
        managed: false,
        when: 'start',
        managedSettings: '/admin/managed-settings.json',
      },
    });
  });
});
