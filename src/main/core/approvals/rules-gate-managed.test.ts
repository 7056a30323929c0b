// The managed policy's place in the rule layer: judged before the user's rules, grants and modes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, PermissionMode } from '../../../shared/domain';
import type { Grant, Rule } from '../../../shared/rules';
import { initShellParser } from '../rules';
import { GrantBook } from './grant-book';
import { createRulesGate } from './rules-gate';
import type { SessionContext } from './session-context';

beforeAll(() => initShellParser());

const CWD = '/work/p';
const approval = (command: string) =>
  ({
    requestId: '0190a000-0000-7000-8000-000000000000',
    agentId: 'agent',
    sessionId: 's1',
    toolCall: { toolCallId: 't', kind: 'execute', title: command, locations: [], content: [] },
    diffs: [],
    command: { command, cwd: CWD, source: 'title' },
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  }) as unknown as PendingApproval;
const session = (mode: PermissionMode) =>
  ({ sessionId: 's1', agentId: 'agent', cwd: CWD, mode }) as SessionContext;

/** A grant for `rm -rf build` in this agent, as a person's "always" would leave it. */
const grant: Grant = {
  id: 'g1',
  agentId: 'agent',
  scope: 'agent',
  toolKind: 'execute',
  commands: [{ argv: ['rm', '-rf', 'build'], env: {}, writes: [], dynamic: [], match: 'exact' }],
  createdAt: 0,
};
const grants = new GrantBook(
  {
    listGrants: async () => [],
    saveGrant: async () => {},
    revokeGrant: async () => {},
  } as never,
  () => 1,
  undefined,
  [{ grant }],
);

const gate = (managed: Rule[], user: Rule[], bypassAllowed = true) =>
  createRulesGate({
    rules: () => user,
    managedRules: () => managed,
    bypassAllowed: () => bypassAllowed,
    grants,
    now: () => 1,
  });

const noRm: Rule = { id: 'no-rm', action: 'deny', command: 'rm' };
const userAllowsRm: Rule = { id: 'rm-ok', action: 'allow', command: 'rm' };

describe('managed rules in the rule layer', () => {
  it('a managed deny wins over a user allow rule, a grant and Bypass, and is named as managed', () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const decision = gate([noRm], [userAllowsRm])(approval('rm -rf build'), session(mode));
      expect(decision).toMatchObject({
        verdict: 'deny',
        decider: { type: 'rule', ruleId: 'no-rm', source: 'managed' },
        reply: { outcome: 'selected', optionKind: 'reject_once' },
      });
      expect(decision.reason).toMatch(/^Managed policy: /);
    }
  });

  it('is named as managed even where a more specific user deny rule matches too', () => {
    const userDeny: Rule = { id: 'no-rm-rf', action: 'deny', command: 'rm -rf build' };
    expect(gate([noRm], [userDeny])(approval('rm -rf build'), session('default')).decider).toEqual({
      type: 'rule',
      ruleId: 'no-rm',
      source: 'managed',
    });
  });

  it('a managed ask rule asks even under Bypass and with a user allow rule', () => {
    const ask: Rule = { id: 'ask-rm', action: 'ask', command: 'rm' };
    expect(
      gate([ask], [userAllowsRm])(approval('rm x'), session('bypassPermissions')),
    ).toMatchObject({
      verdict: 'ask',
    });
  });

  it('what the managed rules leave open is the user’s: their rules and grants decide, unmarked', () => {
    expect(
      gate([noRm], [{ id: 'ls', action: 'allow', command: 'ls' }])(
        approval('ls'),
        session('default'),
      ).decider,
    ).toEqual({
      type: 'rule',
      ruleId: 'ls',
    });
    expect(gate([], [])(approval('rm -rf build'), session('default')).decider).toEqual({
      type: 'grant',
      grantId: 'g1',
    });
  });

  it('a managed allow rule is named as managed', () => {
    const allowLs: Rule = { id: 'ls', action: 'allow', command: 'ls' };
    expect(gate([allowLs], [])(approval('ls'), session('default')).decider).toEqual({
      type: 'rule',
      ruleId: 'ls',
      source: 'managed',
    });
  });

  it('names a rule as managed by the list in force, when the managed list is another one', () => {
    const allowLs: Rule = { id: 'ls', action: 'allow', command: 'ls' };
    let managed: Rule[] = [noRm];
    const judge = createRulesGate({
      rules: () => [allowLs],
      managedRules: () => managed,
      grants,
      now: () => 1,
    });
    expect(judge(approval('ls'), session('default')).decider).toEqual({
      type: 'rule',
      ruleId: 'ls',
    });
    managed = [allowLs];
    expect(judge(approval('ls'), session('default')).decider).toEqual({
      type: 'rule',
      ruleId: 'ls',
      source: 'managed',
    });
  });

  it('a managed rule that might match an opaque line keeps Bypass from allowing it', () => {
    const decision = gate([noRm], [])(approval('$CMD build'), session('bypassPermissions'));
    expect(decision).toMatchObject({ verdict: 'ask' });
    expect(decision.reason).toMatch(/no-rm/);
  });

  it('without Bypass allowed, a session in Bypass is judged as default: it asks', () => {
    expect(gate([], [])(approval('make'), session('bypassPermissions'))).toMatchObject({
      verdict: 'allow',
    });
    expect(gate([noRm], [], false)(approval('make'), session('bypassPermissions'))).toMatchObject({
      verdict: 'ask',
    });
  });
});
