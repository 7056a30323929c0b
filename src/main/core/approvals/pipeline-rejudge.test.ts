import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../rules';
import { gated, permissionRequest } from '../../../../test/support/pipeline-harness';

beforeAll(async () => {
  await initShellParser();
});

/** A shell command the agent asks to run. */
function run(command: string, toolCallId = 'call-1') {
  return {
    ...permissionRequest(toolCallId),
    toolCall: { toolCallId, kind: 'execute', title: command, rawInput: { command } },
  };
}

describe('requests waiting when a rule, grant or mode changes', () => {
  it('an allow rule added decides the waiting request at once, named as its decider', async () => {
    const { pipeline, store, rules, context, asked } = gated();
    const reply = pipeline.handle(context, run('npm test'));
    const approval = await asked();
    rules.push({ id: 'allow-tests', action: 'allow', command: 'npm test' });
    expect(pipeline.rejudgePending()).toBe(1);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(store.decisions).toHaveLength(1);
    expect(store.decisions[0]?.decision).toMatchObject({
      requestId: approval.requestId,
      reply: { outcome: 'selected', optionId: 'yes', optionKind: 'allow_once' },
      decider: { type: 'rule', ruleId: 'allow-tests' },
      reason: expect.stringContaining('allow-tests'),
    });
    expect(pipeline.pending.size).toBe(0);
    expect(pipeline.pending.size).toBe(0);
  });

  it('a deny rule added refuses it with the agent’s reject option', async () => {
    const { pipeline, store, rules, context, asked } = gated();
    const reply = pipeline.handle(context, run('rm -rf build'));
    await asked();
    rules.push({ id: 'no-rm', action: 'deny', command: 'rm' });
    expect(pipeline.rejudgePending()).toBe(1);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(store.decisions[0]?.decision.decider).toEqual({ type: 'rule', ruleId: 'no-rm' });
  });

  it('a rule that does not match leaves it waiting, untouched', async () => {
    const { pipeline, store, rules, context, asked } = gated();
    void pipeline.handle(context, run('npm test'));
    const approval = await asked();
    rules.push({ id: 'allow-ls', action: 'allow', command: 'ls' });
    expect(pipeline.rejudgePending()).toBe(0);
    await Promise.resolve();
    expect(store.decisions).toEqual([]);
    expect(pipeline.pending.get(approval.requestId)).toEqual(approval);
    expect(pipeline.pending.get(approval.requestId)?.expiresAt).toBe(approval.expiresAt);
  });

  it('a person’s "always" decides the other requests its grant covers, by the grant', async () => {
    const { pipeline, store, context, asked, vote } = gated();
    const first = pipeline.handle(context, run('npm test', 'call-1'));
    const shown = await asked();
    const second = pipeline.handle(context, run('npm test', 'call-2'));
    void pipeline.handle(context, run('npm run build', 'call-3'));
    await expect.poll(() => pipeline.pending.size).toBe(3);
    vote({
      requestId: shown.requestId,
      clientId: 'desktop',
      identityProven: true,
      optionId: 'always',
      metadata: { surface: 'dialog', grant: { scope: 'session' } },
    });
    await expect(first).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    await expect(second).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    const [voted, covered] = store.decisions.map((d) => d.decision);
    expect(voted?.decider).toMatchObject({ type: 'person', clientId: 'desktop' });
    const grantId = /grant (\S+)/.exec(voted!.reason)?.[1];
    expect(covered?.decider).toEqual({ type: 'grant', grantId });
    expect(store.decisions).toHaveLength(2);
    expect(pipeline.pending.list().map((a) => a.command?.command)).toEqual(['npm run build']);
  });

  it('Bypass allows what waits, except a command too complex to analyse', async () => {
    const { pipeline, store, context, asked } = gated();
    const simple = pipeline.handle(context, run('make install', 'call-1'));
    const plain = await asked();
    const hostile = `echo ${'$(echo) '.repeat(300)}`;
    void pipeline.handle(context, run(hostile, 'call-2'));
    await expect.poll(() => pipeline.pending.size).toBe(2);
    context.mode = 'bypassPermissions';
    expect(pipeline.rejudgePending()).toBe(1);
    await expect(simple).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(store.decisions.map((d) => d.decision)).toEqual([
      expect.objectContaining({
        requestId: plain.requestId,
        decider: { type: 'mode', mode: 'bypassPermissions' },
      }),
    ]);
    expect(pipeline.pending.list().map((a) => a.command?.command)).toEqual([hostile]);
  });

  it('plan mode refuses a waiting edit, named as the mode', async () => {
    const { pipeline, store, context, asked } = gated();
    const reply = pipeline.handle(context, permissionRequest());
    await asked();
    context.mode = 'plan';
    pipeline.rejudgePending();
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(store.decisions[0]?.decision.decider).toEqual({ type: 'mode', mode: 'plan' });
  });
});

describe('a vote racing a re-judgement', () => {
  const personVote = (requestId: string) => ({
    requestId,
    clientId: 'desktop',
    identityProven: true,
    optionId: 'no',
    metadata: { surface: 'dialog' as const },
  });

  it('a vote first: the person decides, the rule changes nothing, one reply', async () => {
    const { pipeline, store, rules, context, asked, vote, resolved } = gated();
    const reply = pipeline.handle(context, run('npm test'));
    const approval = await asked();
    expect(vote(personVote(approval.requestId))).toMatchObject({ kind: 'resolved' });
    rules.push({ id: 'allow-tests', action: 'allow', command: 'npm test' });
    expect(pipeline.rejudgePending()).toBe(0);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(store.decisions.map((d) => d.decision.decider.type)).toEqual(['person']);
    expect(resolved()).toHaveLength(1);
  });

  it('the rule first: the vote is late, kept in the audit, and the agent hears the rule once', async () => {
    const { pipeline, store, rules, context, asked, vote, resolved } = gated();
    const reply = pipeline.handle(context, run('npm test'));
    const approval = await asked();
    rules.push({ id: 'allow-tests', action: 'allow', command: 'npm test' });
    expect(pipeline.rejudgePending()).toBe(1);
    expect(pipeline.rejudgePending()).toBe(0);
    expect(vote(personVote(approval.requestId))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(store.decisions.map((d) => d.decision.decider)).toEqual([
      { type: 'rule', ruleId: 'allow-tests' },
    ]);
    expect(store.events.map((e) => e.type)).toContain('late_vote');
    expect(resolved()).toHaveLength(1);
  });
});
