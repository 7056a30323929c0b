import { homedir } from 'node:os';
import { RequestError, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { v7 as uuidv7 } from 'uuid';
import type {
  AgentReply,
  Decider,
  Decision,
  PendingApproval,
  PermissionMode,
  PermissionPolicy,
} from '../../../shared/domain';
import { GrantChoice } from '../../../shared/contract';
import type { VoteRecord } from '../../../shared/history';
import { checkJsonShape, describeJsonProblem } from '../agents/json-guard';
import type { EventBus } from '../events/bus';
import {
  CancelSentinelCollisionError,
  type MultiClientPermissionMediator,
  type PermissionAuditRecord,
  type PermissionDecisionAudit,
  type PermissionResolution,
} from '../mediator';
import {
  boundApproval,
  computeWarnings,
  extractCommand,
  mergeToolCallUpdate,
  normalizeToolCall,
  prepareDiffs,
} from '../safety';
import { DIFF_SIDE_MAX_BYTES, DIFFS_TEXT_MAX_BYTES, MAX_PENDING_PER_SESSION } from '../safety/limits';
import type { Store } from '../store';
import { AcpPermissionRequest } from './acp-request';
import { PendingQueue } from './pending';
import { allowReply, rejectReply, replyForResolution } from './reply';

/** What the pipeline needs to know about the session a request came from. */
export interface SessionContext {
  readonly sessionId: string;
  readonly acpSessionId: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly cwd: string;
  readonly policy: PermissionPolicy;
  /** Effective permission mode: the session's own, else the agent's (bypass included). */
  readonly mode: PermissionMode;
  readonly promptId: string | null;
  readonly promptClientId: string | null;
  /** Why the session ended, once it has; decides how an interrupted request is audited. */
  readonly endReason: 'session_closed' | 'agent_exit' | 'agent_unresponsive' | 'shutdown' | null;
  /** What the agent already declared about a tool call in `tool_call` updates (ACP: absent = unchanged). */
  toolCallState(toolCallId: string): unknown;
}

/** The rule layer's answer; `ask` sends the request to the mediator. */
export interface PreDecision {
  verdict: 'allow' | 'deny' | 'ask';
  reply?: AgentReply;
  decider?: Decider;
  reason?: string;
}

export interface PipelineOptions {
  mediator: MultiClientPermissionMediator;
  store: Pick<Store, 'recordRequest' | 'recordDecision' | 'recordEvent'>;
  bus: EventBus;
  timeoutMs: () => number;
  /** Rules, modes and grants; absent means every request asks. */
  decideBefore?: (approval: PendingApproval, session: SessionContext) => PreDecision;
  /** Keeps a person's "always" as a grant; resolves with a note for the audit. */
  remember?: (approval: PendingApproval, session: SessionContext, choice: GrantChoice) => Promise<string>;
  now?: () => number;
}

/**
 * The one path of a permission request: validate → enrich → rules → mediator → audit → reply.
 * The agent hears a decision only after it is committed to the audit; a request that cannot be
 * audited is answered with an error, never with an unrecorded decision.
 */
export class ApprovalPipeline {
  readonly pending = new PendingQueue();
  private readonly audits = new Map<string, PermissionDecisionAudit>();
  private readonly now: () => number;

  constructor(private readonly options: PipelineOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The mediator's audit sink: decision records wait here for the pipeline to write them. */
  onMediatorAudit = (record: PermissionAuditRecord): void => {
    if (record.kind === 'decision') {
      this.audits.set(record.requestId, record);
      return;
    }
    this.options.store.recordEvent({
      type: 'late_vote',
      requestId: record.requestId,
      sessionId: record.sessionId,
      at: record.receivedAtMs,
      payload: {
        clientId: record.clientId ?? null,
        optionId: record.optionId,
        resolvedOptionId: record.resolvedOptionId,
        surface: surfaceOf(record.metadata),
      },
    });
  };

  async handle(session: SessionContext, raw: unknown): Promise<RequestPermissionResponse> {
    const issuedAt = this.now();
    const requestId = uuidv7();
    // Before anything recursive (zod, the safety layer, the audit's serialiser) touches it.
    const shape = checkJsonShape(raw);
    if (shape) {
      const problem = describeJsonProblem(shape);
      this.options.store.recordEvent({
        type: 'malformed_request',
        requestId,
        sessionId: session.sessionId,
        agentId: session.agentId,
        at: issuedAt,
        payload: { problems: [problem], shape },
      });
      throw RequestError.invalidParams({ problem }, `session/request_permission refused: ${problem}`);
    }
    const parsed = AcpPermissionRequest.safeParse(raw);
    if (!parsed.success) {
      await this.refuse(session, requestId, raw, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
      throw RequestError.invalidParams({ issues: parsed.error.issues }, 'malformed session/request_permission');
    }
    const request = parsed.data;
    if (request.sessionId !== session.acpSessionId) {
      await this.refuse(session, requestId, raw, [`sessionId ${request.sessionId} is not this agent's session`]);
      throw RequestError.invalidParams(undefined, `unknown session ${request.sessionId}`);
    }
    // A request may carry only what changed since the agent's tool_call update: show the whole call.
    const toolCall = normalizeToolCall(
      mergeToolCallUpdate(session.toolCallState(request.toolCall.toolCallId), request.toolCall),
    );
    const command = extractCommand(toolCall, session.cwd);
    const diffs = prepareDiffs(toolCall, { maxBytes: DIFF_SIDE_MAX_BYTES, totalBytes: DIFFS_TEXT_MAX_BYTES });
    // The whole request, for the rules and the warnings; what is queued, sent and stored is bounded.
    const whole: PendingApproval = {
      requestId,
      sessionId: session.sessionId,
      agentId: session.agentId,
      agentName: session.agentName,
      cwd: session.cwd,
      toolCall,
      options: request.options,
      policy: session.policy,
      issuedAt,
      expiresAt: issuedAt + this.options.timeoutMs(),
      warnings: computeWarnings({ toolCall, command, diffs, sessionCwd: session.cwd, homeDir: homedir() }),
      diffs,
      command,
      tally: null,
    };
    const { approval, originals } = boundApproval(whole);
    // Built here from the validated request and typed enrichment: not validated a second time.
    this.options.store.recordRequest(approval, { promptId: session.promptId }, { trusted: true, originals });

    if (session.endReason) {
      // The session ended while the agent was still asking: nobody is left to decide.
      return this.conclude(approval, { outcome: 'cancelled' }, { type: session.endReason }, 'session-closed', [], false);
    }
    const pre = this.options.decideBefore?.(whole, session);
    if (pre && pre.verdict !== 'ask' && pre.reply && pre.decider) {
      return this.conclude(approval, pre.reply, pre.decider, pre.reason ?? pre.verdict, [], false);
    }
    if (this.pending.countFor(session.sessionId) >= MAX_PENDING_PER_SESSION) {
      // More than a person can review: refused at once, never queued behind the others.
      return this.conclude(approval, rejectReply(approval.options), { type: 'queue_full' }, 'queue full', [], false);
    }
    return this.ask(session, approval);
  }

  private async ask(session: SessionContext, approval: PendingApproval): Promise<RequestPermissionResponse> {
    const { mediator } = this.options;
    let resolution: Promise<PermissionResolution>;
    try {
      resolution = mediator.request(
        {
          requestId: approval.requestId,
          sessionId: approval.sessionId,
          originatorClientId: session.promptClientId ?? undefined,
          promptId: session.promptId ?? undefined,
          allowedOptionIds: approval.options.map((o) => o.optionId),
          issuedAtMs: approval.issuedAt,
        },
        approval.expiresAt - approval.issuedAt,
        { policy: session.policy },
      );
    } catch (error) {
      if (error instanceof CancelSentinelCollisionError) {
        await this.refuse(session, approval.requestId, approval, [error.message]);
        throw RequestError.invalidParams(undefined, error.message);
      }
      throw error;
    }
    const expiresAt = mediator.expiresAt(approval.requestId) ?? approval.expiresAt;
    const tally = mediator.progress(approval.requestId);
    const shown: PendingApproval = {
      ...approval,
      expiresAt,
      tally: tally && {
        quorum: tally.quorum,
        votesNeeded: tally.votesNeeded,
        voters: tally.voters,
        perOption: { ...tally.tally },
      },
    };
    this.pending.add(shown);
    this.options.bus.publish({ type: 'permission_requested', approval: shown });

    const outcome = await resolution;
    const audit = this.audits.get(approval.requestId);
    this.audits.delete(approval.requestId);
    const displayed = this.pending.wasDisplayed(approval.requestId);
    const current = this.pending.get(approval.requestId) ?? shown;
    let reply = replyForResolution(current.options, outcome);
    let reason: string = audit?.reason ?? (outcome.kind === 'option' ? outcome.decidedBy.reason : outcome.reason);
    if (reply.outcome === 'selected' && reply.optionKind === 'allow_always' && this.options.remember) {
      // The agent's own "always" often reaches further than what was shown (Gemini CLI then allows
      // every edit of the session). Gatehouse keeps the grant, scoped as chosen, and tells the
      // agent "once": its next request is asked again and answered by the grant. A request shown
      // cut is not remembered: a grant must never reach beyond what the person could read.
      const note = cutsFacts(current)
        ? 'not remembered: the request was too large to show whole'
        : await this.options.remember(current, session, grantChoiceOf(audit, reply.optionId));
      reason = `${reason}; ${note}`;
      reply = allowReply(current.options);
    }
    return this.conclude(current, reply, deciderFor(outcome, audit, session), reason, votesOf(audit), displayed);
  }

  private async conclude(
    approval: PendingApproval,
    reply: AgentReply,
    decider: Decider,
    reason: string,
    votes: VoteRecord[],
    displayed: boolean,
  ): Promise<RequestPermissionResponse> {
    const decidedAt = this.now();
    const decision: Decision = {
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      agentId: approval.agentId,
      reply,
      decider,
      decidedAt,
      reason,
    };
    try {
      await this.options.store.recordDecision(
        decision,
        { latencyMs: decidedAt - approval.issuedAt, votes, displayed },
        { trusted: true },
      );
    } finally {
      // Whatever happens to the audit, the request is no longer waiting for anyone.
      this.pending.remove(approval.requestId);
    }
    this.options.bus.publish({
      type: 'permission_resolved',
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      reply,
      decider,
      reason,
    });
    return reply.outcome === 'selected'
      ? { outcome: { outcome: 'selected', optionId: reply.optionId } }
      : { outcome: { outcome: 'cancelled' } };
  }

  private async refuse(session: SessionContext, requestId: string, raw: unknown, problems: string[]): Promise<void> {
    this.options.store.recordEvent({
      type: 'malformed_request',
      requestId,
      sessionId: session.sessionId,
      agentId: session.agentId,
      at: this.now(),
      payload: { problems, request: boundedJson(raw) },
    });
  }
}

/** Parts a grant is made of (the command, the paths) were cut for display. */
function cutsFacts(approval: PendingApproval): boolean {
  return (approval.cuts ?? []).some((c) => ['command', 'locations', 'diffs'].includes(c.part));
}

/** The scope the deciding voter chose for an "always"; the narrowest (session) when none was given. */
function grantChoiceOf(audit: PermissionDecisionAudit | undefined, optionId: string): GrantChoice {
  for (const vote of audit?.votes ?? []) {
    if (vote.optionId !== optionId) continue;
    const parsed = GrantChoice.safeParse(vote.metadata?.grant);
    if (parsed.success) return parsed.data;
  }
  return { scope: 'session' };
}

function surfaceOf(metadata: Readonly<Record<string, unknown>> | undefined): VoteRecord['surface'] {
  const surface = metadata?.surface;
  return typeof surface === 'string' ? (surface as VoteRecord['surface']) : null;
}

function votesOf(audit: PermissionDecisionAudit | undefined): VoteRecord[] {
  if (!audit) return [];
  const counted = audit.votes.map((v) => ({
    clientId: v.clientId ?? null,
    surface: surfaceOf(v.metadata),
    identityProven: v.identityProven,
    optionId: v.optionId === '__cancelled__' ? null : v.optionId,
    outcome: 'counted',
    at: v.receivedAtMs,
  }));
  const refused = audit.forbidden.map((v) => ({
    clientId: v.clientId ?? null,
    surface: surfaceOf(v.metadata),
    identityProven: v.identityProven,
    optionId: v.optionId === '__cancelled__' ? null : v.optionId,
    outcome: `forbidden:${v.reason}`,
    at: v.receivedAtMs,
  }));
  return [...counted, ...refused].sort((a, b) => a.at - b.at);
}

function deciderFor(
  resolution: PermissionResolution,
  audit: PermissionDecisionAudit | undefined,
  session: SessionContext,
): Decider {
  if (resolution.kind === 'option') {
    if (resolution.decidedBy.reason === 'consensus-quorum') {
      return { type: 'consensus', clientIds: [...resolution.decidedBy.clientIds] };
    }
    const clientId = resolution.decidedBy.clientIds[0] ?? null;
    const vote = audit?.votes.find((v) => (v.clientId ?? null) === clientId);
    const person: Decider = { type: 'person', clientId, surface: surfaceOf(vote?.metadata) ?? 'api' };
    return vote?.metadata?.paired === false ? { ...person, paired: false } : person;
  }
  switch (resolution.reason) {
    case 'timeout':
      return { type: 'timeout' };
    case 'split_vote':
      return { type: 'split_vote' };
    case 'voter_cancelled':
      return { type: 'voter_cancelled', clientId: resolution.clientId ?? null };
    case 'agent_cancelled':
      return { type: 'turn_cancelled' };
    case 'session_closed':
      return { type: session.endReason ?? 'session_closed' };
  }
}

/** Keeps a hostile request's audit copy bounded: the shape and the start of it, not megabytes. */
function boundedJson(value: unknown, max = 64 * 1024): unknown {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch {
    return '[unserializable]';
  }
  return text.length <= max ? value : `${text.slice(0, max)}… [${text.length} chars]`;
}
