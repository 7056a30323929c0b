// A pipeline for unit tests: a store that keeps what it is given, a session as an agent would
// present it, and the mediator's votes at hand. No subprocess, no database.
import { expect, vi } from 'vitest';
import type { GatehouseEvent } from '../../src/shared/contract';
import type {
  Decision,
  PendingApproval,
  PermissionMode,
  PermissionPolicy,
} from '../../src/shared/domain';
import type { Rule } from '../../src/shared/rules';
import { EventBus } from '../../src/main/core/events/bus';
import type { PermissionVoteInput } from '../../src/main/core/mediator';
import type { DecisionMeta } from '../../src/main/core/store';
import type { GrantRecord } from '../../src/main/core/store/grant-records';
import { GrantBook } from '../../src/main/core/approvals/grant-book';
import { ApprovalPipeline, type PipelineOptions } from '../../src/main/core/approvals/pipeline';
import { createRulesGate, factsOf } from '../../src/main/core/approvals/rules-gate';
import type { SessionContext } from '../../src/main/core/approvals/session-context';

const ACP_SESSION = 'acp-1';

/** A store that keeps what it is given; a decision may be made to fail to commit. */
function fakeStore() {
  const requests: PendingApproval[] = [];
  const decisions: { decision: Decision; meta: DecisionMeta }[] = [];
  const events: { type: string; requestId?: string | null; payload?: unknown }[] = [];
  let failCommit = false;
  return {
    requests,
    decisions,
    events,
    failNextCommit: () => {
      failCommit = true;
    },
    recordRequest: (request: PendingApproval) => void requests.push(request),
    recordEvent: (event: { type: string; requestId?: string | null; payload?: unknown }) =>
      void events.push(event),
    recordDecision: async (decision: Decision, meta: DecisionMeta) => {
      if (failCommit) {
        failCommit = false;
        throw new Error('disk full');
      }
      decisions.push({ decision, meta });
    },
  };
}

/** The session as an agent subprocess would present it, scripted. */
export function session(overrides: Partial<SessionContext> = {}): SessionContext {
  return {
    sessionId: 'session-1',
    acpSessionId: ACP_SESSION,
    agentId: 'coder',
    agentName: 'Coder',
    cwd: '/work/project',
    policy: 'first-responder',
    mode: 'default',
    promptId: 'turn-1',
    promptClientId: null,
    endReason: null,
    toolCallState: () => undefined,
    ...overrides,
  };
}

/** What the agent sends in `session/request_permission`. */
export function permissionRequest(toolCallId = 'call-1') {
  return {
    sessionId: ACP_SESSION,
    toolCall: {
      toolCallId,
      kind: 'edit',
      title: 'Write notes.txt',
      locations: [{ path: '/work/project/notes.txt' }],
    },
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  };
}

export function setup(
  options: Partial<Omit<PipelineOptions, 'policy'>> & {
    policy?: PermissionPolicy;
    voters?: string[];
  } = {},
) {
  const store = fakeStore();
  const bus = new EventBus();
  const published: GatehouseEvent[] = [];
  bus.subscribe((event) => published.push(event));
  const { policy = 'first-responder', voters = [], ...rest } = options;
  const pipeline = new ApprovalPipeline({
    policy: { policy },
    votersForSession: () => voters,
    store,
    bus,
    timeoutMs: () => 60_000,
    ...rest,
  });
  /** The request as clients are shown it, once the pipeline has queued it. */
  const asked = async (): Promise<PendingApproval> => {
    await vi.waitFor(() => expect(pipeline.pending.size).toBeGreaterThan(0));
    return pipeline.pending.list()[0]!;
  };
  const vote = (input: Omit<PermissionVoteInput, 'fromLoopback' | 'receivedAtMs'>) =>
    pipeline.vote({ fromLoopback: true, receivedAtMs: Date.now(), ...input });
  const types = () => published.map((e) => e.type);
  return { pipeline, store, published, types, asked, vote };
}

/** The pipeline with the real rules gate and grant book; rules and mode change under it. */
export function gated(extra: Partial<Omit<PipelineOptions, 'policy'>> = {}) {
  const rules: Rule[] = [];
  const grants = new GrantBook(
    {
      saveGrant: async (grant) => grant as unknown as GrantRecord,
      revokeGrant: async () => true,
      listGrants: async () => [],
    },
    Date.now,
  );
  const context = { ...session(), mode: 'default' as PermissionMode };
  const harness = setup({
    decideBefore: createRulesGate({ rules: () => rules, grants, now: Date.now }),
    remember: async (approval, from, choice) => {
      const result = await grants.remember(factsOf(approval, from.cwd), choice);
      return result.ok ? `remembered as grant ${result.grant.id}` : result.error;
    },
    ...extra,
  });
  const resolved = () => harness.published.filter((e) => e.type === 'permission_resolved');
  return { ...harness, rules, grants, context, resolved };
}
