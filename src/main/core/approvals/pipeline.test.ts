import { RequestError } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANCEL_VOTE_SENTINEL } from '../mediator';
import { permissionRequest, session, setup } from '../../../../test/support/pipeline-harness';
import { REQUEST_STAGES } from './request-stages';
import type { SessionContext } from './session-context';
import type { PendingApproval, Surface } from '../../../shared/domain';

/** A vote of a client whose identity is proven, from one surface. */
function proven(requestId: string, clientId: string, optionId: string, surface: Surface) {
  return { requestId, clientId, identityProven: true, optionId, metadata: { surface } } as const;
}

describe('a request a person decides', () => {
  it('is queued and announced, and the vote becomes the reply, audited before it is sent', async () => {
    const { pipeline, store, types, asked, vote } = setup();
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    expect(types()).toEqual(['permission_requested']);
    expect(store.requests.map((r) => r.requestId)).toEqual([approval.requestId]);

    pipeline.pending.markDisplayed(approval.requestId);
    vote(proven(approval.requestId, 'desktop', 'yes', 'dialog'));

    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(store.decisions).toHaveLength(1);
    const [{ decision, meta }] = store.decisions as [(typeof store.decisions)[0]];
    expect(decision).toMatchObject({
      requestId: approval.requestId,
      reply: { outcome: 'selected', optionId: 'yes', optionKind: 'allow_once' },
      decider: { type: 'person', clientId: 'desktop', surface: 'dialog' },
      reason: 'first-responder',
    });
    expect(meta.displayed).toBe(true);
    expect(meta.votes).toEqual([
      expect.objectContaining({
        clientId: 'desktop',
        surface: 'dialog',
        optionId: 'yes',
        outcome: 'counted',
      }),
    ]);
    expect(pipeline.pending.size).toBe(0);
    expect(types()).toEqual(['permission_requested', 'permission_resolved']);
  });

  it('an unpaired API vote is a person on the api surface, marked unpaired', async () => {
    const { pipeline, store, asked, vote } = setup();
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    vote({
      requestId: approval.requestId,
      optionId: 'no',
      metadata: { surface: 'api', paired: false },
    });
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(store.decisions[0]?.decision.decider).toEqual({
      type: 'person',
      clientId: null,
      surface: 'api',
      paired: false,
    });
  });

  it('an "always" keeps a grant in the scope the voter chose and tells the agent "once"', async () => {
    const remember = vi.fn(async () => 'remembered as grant g-1 (project)');
    const { pipeline, store, asked, vote } = setup({ remember });
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    vote({
      requestId: approval.requestId,
      clientId: 'desktop',
      identityProven: true,
      optionId: 'always',
      metadata: { surface: 'dialog', grant: { scope: 'project', expiresInMinutes: 60 } },
    });
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(remember).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: approval.requestId }),
      expect.objectContaining({ sessionId: 'session-1' }),
      { scope: 'project', expiresInMinutes: 60 },
    );
    expect(store.decisions[0]?.decision.reason).toBe(
      'first-responder; remembered as grant g-1 (project)',
    );
  });

  it('a decision that cannot be committed reaches the agent as an error, never as a reply', async () => {
    const { pipeline, store, types, asked, vote } = setup();
    store.failNextCommit();
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    vote({ requestId: approval.requestId, optionId: 'yes', metadata: { surface: 'api' } });
    await expect(reply).rejects.toThrow('disk full');
    expect(pipeline.pending.size).toBe(0);
    expect(types()).toEqual(['permission_requested']);
  });

  it('a vote after the decision is answered already_resolved and kept as a late vote', async () => {
    const { pipeline, store, asked, vote } = setup();
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    vote({ requestId: approval.requestId, optionId: 'yes', metadata: { surface: 'api' } });
    await reply;
    expect(
      vote({
        requestId: approval.requestId,
        clientId: 'phone',
        optionId: 'no',
        metadata: { surface: 'link' },
      }),
    ).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'yes',
    });
    expect(store.events).toContainEqual(
      expect.objectContaining({
        type: 'late_vote',
        requestId: approval.requestId,
        payload: { clientId: 'phone', optionId: 'no', resolvedOptionId: 'yes', surface: 'link' },
      }),
    );
  });
});

describe('requests nobody votes on', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the timeout refuses with the agent’s reject option', async () => {
    const { pipeline, store } = setup({ timeoutMs: () => 1_000 });
    const reply = pipeline.handle(session(), permissionRequest());
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(store.decisions[0]?.decision).toMatchObject({
      decider: { type: 'timeout' },
      reason: 'timeout',
    });
    expect(pipeline.pending.size).toBe(0);
  });

  it('an extension moves the deadline shown and announced, and the timeout with it', async () => {
    const { pipeline, store, published } = setup({ timeoutMs: () => 1_000 });
    const reply = pipeline.handle(session(), permissionRequest());
    await vi.advanceTimersByTimeAsync(0);
    const [approval] = pipeline.pending.list();
    const expiresAt = pipeline.extend(approval!.requestId, 5_000);
    expect(pipeline.pending.get(approval!.requestId)?.expiresAt).toBe(expiresAt);
    expect(published.at(-1)).toEqual({
      type: 'permission_extended',
      requestId: approval!.requestId,
      expiresAt,
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.decisions).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
  });
});

describe('cancels', () => {
  it('a cancelled turn answers the agent `cancelled`', async () => {
    const { pipeline, store, asked } = setup();
    const reply = pipeline.handle(session(), permissionRequest());
    await asked();
    expect(pipeline.cancelTurn('session-1', 'turn-1')).toBe(1);
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    expect(store.decisions[0]?.decision).toMatchObject({
      reply: { outcome: 'cancelled' },
      decider: { type: 'turn_cancelled' },
      reason: 'agent-cancelled',
    });
  });

  it('a voter’s cancel is a refusal with the agent’s reject option, naming the voter', async () => {
    const { pipeline, store, asked, vote } = setup();
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    vote(proven(approval.requestId, 'desktop', CANCEL_VOTE_SENTINEL, 'tray'));
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    const { decision, meta } = store.decisions[0]!;
    expect(decision).toMatchObject({
      decider: { type: 'voter_cancelled', clientId: 'desktop' },
      reason: 'voter-cancelled',
    });
    // The sentinel never reaches the history as an option.
    expect(meta.votes).toEqual([
      expect.objectContaining({ optionId: null, surface: 'tray', outcome: 'counted' }),
    ]);
  });

  it('a closed session ends its request as the session ended', async () => {
    const context = { ...session(), endReason: null as SessionContext['endReason'] };
    const { pipeline, store, asked } = setup();
    const reply = pipeline.handle(context, permissionRequest());
    await asked();
    context.endReason = 'agent_exit';
    pipeline.endSession('session-1');
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    expect(store.decisions[0]?.decision.decider).toEqual({ type: 'agent_exit' });
  });
});

describe('decided without a person', () => {
  it('the rule layer answers at once, and nothing is queued or announced', async () => {
    const { pipeline, store, types } = setup({
      decideBefore: () => ({
        verdict: 'allow',
        reply: { outcome: 'selected', optionId: 'yes', optionKind: 'allow_once' },
        decider: { type: 'rule', ruleId: 'docs' },
        reason: 'rule docs',
      }),
    });
    await expect(pipeline.handle(session(), permissionRequest())).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'yes' },
    });
    expect(store.decisions[0]?.decision).toMatchObject({
      decider: { type: 'rule', ruleId: 'docs' },
      reason: 'rule docs',
    });
    expect(types()).toEqual(['permission_resolved']);
    expect(pipeline.pending.size).toBe(0);
  });

  it('a malformed request is refused and audited, and no decision is made', async () => {
    const { pipeline, store } = setup();
    const bad = { ...permissionRequest(), options: [] };
    await expect(pipeline.handle(session(), bad)).rejects.toBeInstanceOf(RequestError);
    expect(store.events.map((e) => e.type)).toEqual(['malformed_request']);
    expect(store.decisions).toEqual([]);
  });
});

describe('consensus', () => {
  it('a partial vote updates the tally shown and announces it', async () => {
    const { pipeline, published, asked, vote } = setup({
      policy: 'consensus',
      voters: ['a', 'b', 'c'],
    });
    const reply = pipeline.handle(session({ policy: 'consensus' }), permissionRequest());
    const approval = await asked();
    expect(approval.tally).toEqual({
      quorum: 2,
      votesNeeded: 2,
      voters: 3,
      perOption: { yes: 0, always: 0, no: 0 },
    });

    vote(proven(approval.requestId, 'a', 'yes', 'browser'));
    const tally = { quorum: 2, votesNeeded: 1, voters: 3, perOption: { yes: 1, always: 0, no: 0 } };
    expect(pipeline.pending.get(approval.requestId)?.tally).toEqual(tally);
    expect(published.at(-1)).toEqual({
      type: 'permission_partial_vote',
      requestId: approval.requestId,
      sessionId: 'session-1',
      tally,
    });

    vote(proven(approval.requestId, 'b', 'yes', 'browser'));
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
  });
});

describe('what an allowed request approved', () => {
  it('is passed on whole before the agent hears, for an allow; never for a reject', async () => {
    const allowed: PendingApproval[] = [];
    const { pipeline, asked, vote } = setup({ allowed: (approval) => void allowed.push(approval) });
    const big = 'x'.repeat(3 * 1024 * 1024);
    const request = {
      ...permissionRequest(),
      toolCall: {
        ...permissionRequest().toolCall,
        content: [{ type: 'diff', path: '/work/project/notes.txt', oldText: null, newText: big }],
      },
    };
    for (const optionId of ['no', 'yes']) {
      const reply = pipeline.handle(session(), request);
      const approval = await asked();
      vote({ requestId: approval.requestId, clientId: 'desktop', identityProven: true, optionId });
      await reply;
    }
    expect(allowed).toHaveLength(1);
    // The agent's own content, not the copy cut for display.
    expect(allowed[0]!.toolCall.content).toEqual(request.toolCall.content);
  });
});

describe('where a request’s time goes', () => {
  it('a shown request reports every stage once, in order, before anyone votes', async () => {
    const stages = vi.fn();
    const { pipeline, asked, vote } = setup({ stages });
    const reply = pipeline.handle(session(), permissionRequest());
    const approval = await asked();
    expect(stages).toHaveBeenCalledTimes(1);
    const times = stages.mock.calls[0]![0] as Record<string, number>;
    expect(Object.keys(times)).toEqual([...REQUEST_STAGES]);
    for (const ms of Object.values(times)) expect(ms).toBeGreaterThanOrEqual(0);
    vote(proven(approval.requestId, 'desktop', 'yes', 'dialog'));
    await reply;
    expect(stages).toHaveBeenCalledTimes(1);
  });

  it('a request the rules decide reports the stages up to the rules; a malformed one reports none', async () => {
    const stages = vi.fn();
    const { pipeline } = setup({
      stages,
      decideBefore: () => ({
        verdict: 'deny',
        reply: { outcome: 'selected', optionId: 'no', optionKind: 'reject_once' },
        decider: { type: 'rule', ruleId: 'never' },
      }),
    });
    await pipeline.handle(session(), permissionRequest());
    expect(Object.keys(stages.mock.calls[0]![0] as object)).toEqual(
      REQUEST_STAGES.slice(0, REQUEST_STAGES.indexOf('rules') + 1),
    );
    await expect(
      pipeline.handle(session(), { ...permissionRequest(), options: [] }),
    ).rejects.toBeInstanceOf(RequestError);
    expect(stages).toHaveBeenCalledTimes(1);
  });
});
