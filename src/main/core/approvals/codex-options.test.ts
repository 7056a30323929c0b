// Codex's "don't ask again" option (`approved-execpolicy-amendment`, kind allow_always) is a
// permanent exec-policy amendment Codex keeps by itself: no rule, grant or mode may select it, and a
// person's "always" becomes a Gatehouse grant while Codex is told `approved`.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../rules';
import { gated, permissionRequest } from '../../../../test/support/pipeline-harness';

beforeAll(() => initShellParser());

const APPROVED = { outcome: { outcome: 'selected', optionId: 'approved' } };

/** A shell request as codex-acp 0.16 sends it. */
function codexRun(script: string, toolCallId = 'call-1') {
  return {
    ...permissionRequest(toolCallId),
    toolCall: {
      toolCallId,
      kind: 'execute',
      title: script,
      rawInput: {
        command: ['/bin/bash', '-lc', script],
        cwd: '/work/project',
        proposed_execpolicy_amendment: script.split(' '),
      },
    },
    options: [
      { optionId: 'approved', name: 'Yes, proceed', kind: 'allow_once' },
      {
        optionId: 'approved-execpolicy-amendment',
        name: `Yes, and don't ask again for commands that start with \`${script}\``,
        kind: 'allow_always',
      },
      { optionId: 'abort', name: 'No, and tell Codex what to do differently', kind: 'reject_once' },
    ],
  };
}

describe("Codex's exec-policy amendment option", () => {
  it('is not what an allow rule selects: Codex is told `approved`', async () => {
    const { pipeline, rules, context, store } = gated();
    rules.push({ id: 'tests', action: 'allow', command: 'npm test' });
    await expect(pipeline.handle(context, codexRun('npm test'))).resolves.toEqual(APPROVED);
    expect(store.decisions[0]?.decision.decider).toEqual({ type: 'rule', ruleId: 'tests' });
  });

  it('is not what Bypass selects', async () => {
    const { pipeline, context, store } = gated();
    context.mode = 'bypassPermissions';
    await expect(pipeline.handle(context, codexRun('make build'))).resolves.toEqual(APPROVED);
    expect(store.decisions[0]?.decision.decider).toEqual({
      type: 'mode',
      mode: 'bypassPermissions',
    });
  });

  it("a person's choice of it becomes a Gatehouse grant; the grant then answers `approved`", async () => {
    const { pipeline, context, store, grants, asked, vote } = gated();
    const first = pipeline.handle(context, codexRun('npm test'));
    const approval = await asked();
    vote({
      requestId: approval.requestId,
      clientId: 'desktop',
      identityProven: true,
      optionId: 'approved-execpolicy-amendment',
      metadata: { surface: 'dialog', grant: { scope: 'session' } },
    });
    await expect(first).resolves.toEqual(APPROVED);
    const [grant] = grants.activeFor(context.agentId);
    expect(grant).toBeDefined();

    await expect(pipeline.handle(context, codexRun('npm test', 'call-2'))).resolves.toEqual(
      APPROVED,
    );
    expect(store.decisions[1]?.decision.decider).toEqual({ type: 'grant', grantId: grant!.id });
  });

  it('an agent whose only allow is its own "always" is asked of a person, not allowed by a rule', async () => {
    const { pipeline, rules, context, asked, vote } = gated();
    rules.push({ id: 'tests', action: 'allow', command: 'npm test' });
    const request = codexRun('npm test');
    const onlyAlways = {
      ...request,
      options: request.options.filter((o) => o.kind !== 'allow_once'),
    };
    const reply = pipeline.handle(context, onlyAlways);
    const approval = await asked();
    vote({
      requestId: approval.requestId,
      clientId: 'desktop',
      identityProven: true,
      optionId: 'abort',
      metadata: { surface: 'dialog' },
    });
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'abort' } });
  });
});
