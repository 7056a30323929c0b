import { homedir } from 'node:os';
import { RequestError, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { newId } from '../ids';
import type { GrantChoice } from '../../../shared/contract';
import type { AgentReply, Decider, Decision, PendingApproval } from '../../../shared/domain';
import type { VoteRecord } from '../../../shared/history';
import type { EventBus } from '../events/bus';
import {
  CancelSentinelCollisionError,
  MultiClientPermissionMediator,
  type ConsensusProgress,
  type PermissionDecision,
  type PermissionVoteInput,
  type PermissionVoteOutcome,
  type PolicyConfig,
} from '../mediator';
import {
  boundApproval,
  computeWarnings,
  diffsNotPrepared,
  extractCommand,
  mergeToolCallUpdate,
  normalizeToolCall,
  prepareDiffs,
  withDiskBefore,
  type DiskView,
} from '../safety';
import {
  DIFF_SIDE_MAX_BYTES,
  DIFFS_TEXT_MAX_BYTES,
  MAX_PENDING_PER_SESSION,
} from '../safety/limits';
import type { Store } from '../store';
import { deciderFor, grantChoiceOf, votesOf } from './decision-audit';
import { announce, lateVoteEvent } from './announcements';
import { DiskQueue } from './disk-queue';
import { cutsFacts, offerPrefix } from './grant-book';
import { PendingQueue, voteTally, type PendingView } from './pending';
import { PreviewStage, type PreviewOptions } from './preview-stage';
import { REJECT_MESSAGE_META_KEY, rejectMessageOf } from './reject-message';
import { admitRequest, refuseRequest } from './request-intake';
import { QuestionDesk } from './questions';
import type { PathsLed } from './approved-actions';
import { StageClock, type StageTimes } from './request-stages';
import { allowOnceReply, rejectReply, replyForResolution } from './reply';
import type { PreDecision, SessionContext, Verdict } from './session-context';

export type { PreDecision, SessionContext } from './session-context';

function decides(pre: PreDecision | undefined): pre is Verdict {
  return pre !== undefined && pre.verdict !== 'ask' && !!pre.reply && !!pre.decider;
}

export interface PipelineOptions {
  /** The policy (and consensus quorum) in force for the life of the process. */
  policy: PolicyConfig;
  /** Paired clients present now: a consensus request's voters, read when it arrives. */
  votersForSession: (sessionId: string) => Iterable<string>;
  store: Pick<Store, 'recordRequest' | 'recordDecision' | 'recordEvent'>;
  bus: EventBus;
  timeoutMs: () => number;
  /** Rules, modes and grants; absent means every request asks. */
  decideBefore?: (
    approval: PendingApproval,
    session: SessionContext,
    known?: { gitDirs?: readonly string[] },
  ) => PreDecision;
  /** Keeps a person's "always" as a grant; resolves with a note for the audit. */
  remember?: (
    approval: PendingApproval,
    session: SessionContext,
    choice: GrantChoice,
  ) => Promise<string>;
  /**
   * Told of each allowed request, whole, before the agent hears: what it approved may now happen.
   * The reply waits for what it returns (what the change replaces is kept before it can happen).
   */
  allowed?: (approval: PendingApproval, led: PathsLed) => void | Promise<void>;
  /** What the disk says about a request's paths (approvals/disk-facts.ts); absent: not looked up. */
  disk?: (cwd: string, toolCall: PendingApproval['toolCall']) => Promise<DiskView>;
  /** Commands a person is asked about are first run in a scratch view; absent: never previewed. */
  preview?: PreviewOptions;
  /** Told where each well-formed request's time went before it was shown or decided (the bench). */
  stages?: (times: StageTimes) => void;
  now?: () => number;
}

/**
 * The one path of a permission request: validate → enrich → rules → mediator → audit → reply.
 * The agent hears a decision only after it is committed to the audit; a request that cannot be
 * audited is answered with an error, never with an unrecorded decision. The pipeline owns the
 * mediator and is its only listener: what the mediator announces reaches the queue and the bus
 * from here, and a decision comes back as the value of the request's own promise. The mediator
 * holds the pipeline's view of each waiting request with the request itself; `pending` reads it.
 */
export class ApprovalPipeline {
  /** What clients are shown while a person decides. */
  readonly pending: PendingQueue;
  /** Held here alone: votes, deadlines, cancelled turns and ended sessions come in by the methods below. */
  private readonly mediator: MultiClientPermissionMediator<PendingView>;
  private readonly now: () => number;
  /** Disk look-ups in arrival order, so a request that waits for the disk is not overtaken. */
  private readonly disk: DiskQueue;
  private readonly previews?: PreviewStage;
  private readonly questions: QuestionDesk;

  constructor(private readonly options: PipelineOptions) {
    this.now = options.now ?? Date.now;
    this.mediator = new MultiClientPermissionMediator<PendingView>(options.policy.policy, {
      consensusQuorum: options.policy.consensusQuorum,
      now: this.now,
      votersForSession: options.votersForSession,
      emit: (_sessionId, event) => announce(event, options.bus, this.pending),
      lateVote: (vote) => options.store.recordEvent(lateVoteEvent(vote)),
    });
    this.pending = new PendingQueue(this.mediator);
    this.disk = new DiskQueue(options.disk);
    if (options.preview) this.previews = new PreviewStage(options.preview, options, this);
    this.questions = new QuestionDesk(options, this.mediator, this.pending, this.now);
  }

  /** An agent's question (ACP elicitation): the same queue and policy; no rule answers it. */
  question(session: SessionContext, raw: unknown): ReturnType<QuestionDesk['ask']> {
    return this.questions.ask(session, raw);
  }

  /** A voter's answer to a pending request; the policy decides whether and how it counts. */
  vote(input: PermissionVoteInput): PermissionVoteOutcome {
    return this.mediator.vote(input);
  }

  /** A consensus request's tally as it stands; null for other policies or once it has ended. */
  progress(requestId: string): ConsensusProgress | null {
    return this.mediator.progress(requestId);
  }

  /** More time for a pending request; its new deadline, or null when it no longer waits. */
  extend(requestId: string, extraMs: number): number | null {
    return this.mediator.extendTimeout(requestId, extraMs);
  }

  /** The agent's turn was cancelled: its requests (all of the session's without `promptId`) end. */
  cancelTurn(sessionId: string, promptId?: string): number {
    return this.mediator.cancelForPrompt(sessionId, promptId);
  }

  /** The session is over: what still waits ends, and what it remembers of resolved requests goes. */
  endSession(sessionId: string): void {
    this.mediator.forgetSession(sessionId);
  }

  /**
   * `asking` is told when the request waits for a person (never when the rules, a grant, a mode or
   * the queue decide it), so an editor behind a proxy can be asked at the same moment.
   */
  async handle(
    session: SessionContext,
    raw: unknown,
    hooks: { asking?: (approval: PendingApproval) => void } = {},
  ): Promise<RequestPermissionResponse> {
    const clock = this.options.stages ? new StageClock(this.options.stages) : undefined;
    const issuedAt = this.now();
    const requestId = newId();
    const request = admitRequest(this.options.store, session, requestId, raw, issuedAt);
    clock?.lap('validate');
    // A request may carry only what changed since the agent's tool_call update: show the whole call.
    const toolCall = normalizeToolCall(
      mergeToolCallUpdate(session.toolCallState(request.toolCall.toolCallId), request.toolCall),
    );
    const command = offerPrefix(extractCommand(toolCall, session.cwd));
    const disk = await this.disk.facts(session.cwd, toolCall);
    // The diff shown is the one the write makes: its "before" is the file on disk.
    const shown = disk ? withDiskBefore(toolCall, disk) : toolCall;
    // Where its paths led as shown: an approval does not follow a link swapped in afterwards.
    const led: PathsLed = new Map(disk?.paths.map((p) => [p.path, p.real]));
    const diffs = prepareDiffs(shown, {
      maxBytes: DIFF_SIDE_MAX_BYTES,
      totalBytes: DIFFS_TEXT_MAX_BYTES,
    });
    const diffsDropped = diffsNotPrepared(toolCall);
    clock?.lap('enrich');
    const warnings = computeWarnings({
      toolCall,
      command,
      diffs,
      sessionCwd: session.cwd,
      homeDir: homedir(),
      disk,
    });
    clock?.lap('warnings');
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
      warnings,
      diffs,
      ...(diffsDropped > 0 ? { diffsDropped } : {}),
      command,
      tally: null,
    };
    const { approval, originals } = boundApproval(whole);
    clock?.lap('bound');
    // Built here from the validated request and typed enrichment: not validated a second time.
    this.options.store.recordRequest(
      approval,
      { promptId: session.promptId },
      { trusted: true, originals },
    );
    clock?.lap('record');

    if (session.endReason) {
      // The session ended while the agent was still asking: nobody is left to decide.
      clock?.done();
      return this.conclude(
        approval,
        { outcome: 'cancelled' },
        { type: session.endReason },
        'session-closed',
        [],
        false,
      );
    }
    const pre = this.options.decideBefore?.(whole, session, disk ? { gitDirs: disk.gitDirs } : {});
    clock?.lap('rules');
    if (decides(pre)) {
      clock?.done();
      return this.allowing(
        whole,
        shown,
        led,
        await this.conclude(approval, pre.reply, pre.decider, pre.reason ?? pre.verdict, [], false),
      );
    }
    if (this.pending.countFor(session.sessionId) >= MAX_PENDING_PER_SESSION) {
      // More than a person can review: refused at once, never queued behind the others.
      clock?.done();
      return this.conclude(
        approval,
        rejectReply(approval.options),
        { type: 'queue_full' },
        'queue full',
        [],
        false,
      );
    }
    // The preview lands on the request while it waits: what is allowed is the request as last judged.
    const judged = { whole };
    const response = await this.ask(session, approval, whole, hooks.asking, clock, judged);
    return this.allowing(judged.whole, shown, led, response);
  }

  /**
   * Passes an allowed request on to `allowed` (the writes and commands it approved): its diffs as
   * the person was shown them, whose "after" is the file the write makes.
   */
  private async allowing(
    whole: PendingApproval,
    shown: PendingApproval['toolCall'],
    led: PathsLed,
    response: RequestPermissionResponse,
  ): Promise<RequestPermissionResponse> {
    const { outcome } = response;
    const kind =
      outcome.outcome === 'selected'
        ? whole.options.find((o) => o.optionId === outcome.optionId)?.kind
        : undefined;
    if (kind === 'allow_once' || kind === 'allow_always')
      await this.options.allowed?.(
        shown === whole.toolCall ? whole : { ...whole, toolCall: shown },
        led,
      );
    return response;
  }

  /**
   * Judges the requests waiting for a person again, after a rule, grant, mode or Bypass changed.
   * Those the rules now decide are answered at once and audited with the rule, grant or mode that
   * decided, as if it had decided on arrival; the others keep waiting. The mediator ends each one,
   * so when a vote races a re-judgement the first wins and the agent is answered once.
   * Returns how many were decided.
   */
  rejudgePending(): number {
    const judge = this.options.decideBefore;
    if (!judge) return 0;
    let decided = 0;
    for (const [requestId, waiting] of this.pending.judged()) {
      // Only what the mediator still holds is listed; one whose session ended, or that the judging
      // of an earlier one ended, is not judged again, so a grant of scope "once" is never spent on it.
      const ended = waiting.session.endReason || this.mediator.expiresAt(requestId) === null;
      // A question is the person's to answer: no rule, grant or mode answers it for them.
      if (ended || waiting.whole.question) continue;
      const pre = judge(waiting.whole, waiting.session);
      if (!decides(pre) || !this.mediator.withdraw(requestId)) continue;
      waiting.verdict = pre;
      decided++;
    }
    return decided;
  }

  private async ask(
    session: SessionContext,
    approval: PendingApproval,
    whole: PendingApproval,
    asking?: (approval: PendingApproval) => void,
    clock?: StageClock,
    judged?: { whole: PendingApproval },
  ): Promise<RequestPermissionResponse> {
    const { mediator } = this;
    // Held by the mediator with the request, and kept here: once the request ends it is listed
    // nowhere, but the answer is still built from what was shown and decided.
    const view: PendingView = { approval, displayed: false, judged: { session, whole } };
    this.previews?.prepare(view);
    let decided: Promise<PermissionDecision>;
    try {
      decided = mediator.request(
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
        view,
      );
    } catch (error) {
      clock?.done();
      if (error instanceof CancelSentinelCollisionError) {
        const at = this.now();
        refuseRequest(
          this.options.store,
          session,
          approval.requestId,
          approval,
          [error.message],
          at,
        );
        throw RequestError.invalidParams(undefined, error.message);
      }
      throw error;
    }
    const progress = mediator.progress(approval.requestId);
    const shown: PendingApproval = {
      ...view.approval,
      expiresAt: mediator.expiresAt(approval.requestId) ?? approval.expiresAt,
      tally: progress && voteTally(progress),
    };
    view.approval = shown;
    clock?.lap('mediator');
    this.options.bus.publish({ type: 'permission_requested', approval: shown });
    asking?.(shown);
    clock?.lap('publish');
    clock?.done();
    const endPreview = this.previews?.start(view);
    const decision = await decided;
    if (judged) judged.whole = view.judged.whole;
    endPreview?.();
    const { verdict } = view.judged;
    const { approval: current, displayed } = view;
    if (verdict) {
      const reason = verdict.reason ?? verdict.verdict;
      return this.conclude(
        current,
        verdict.reply,
        verdict.decider,
        reason,
        votesOf(decision),
        displayed,
      );
    }
    let reply = replyForResolution(current.options, decision.resolution);
    let reason: string = decision.reason;
    const message = rejectMessageOf(decision, reply);
    if (
      reply.outcome === 'selected' &&
      reply.optionKind === 'allow_always' &&
      this.options.remember
    ) {
      // The agent's own "always" often reaches further than what was shown (Gemini CLI then allows
      // every edit of the session). Gatehouse keeps the grant, scoped as chosen, and tells the
      // agent "once": its next request is asked again and answered by the grant. A request shown
      // cut is not remembered: a grant must never reach beyond what the person could read.
      const note = cutsFacts(current)
        ? 'not remembered: the request was too large to show whole'
        : await this.options.remember(current, session, grantChoiceOf(decision, reply.optionId));
      reason = `${reason}; ${note}`;
      // An agent with no one-time allow gets the option the person chose.
      reply = allowOnceReply(current.options) ?? reply;
      // The new grant may cover other requests waiting in the meantime.
      this.rejudgePending();
    }
    return this.conclude(
      current,
      reply,
      deciderFor(decision, session),
      reason,
      votesOf(decision),
      displayed,
      message,
    );
  }

  private async conclude(
    approval: PendingApproval,
    reply: AgentReply,
    decider: Decider,
    reason: string,
    votes: VoteRecord[],
    displayed: boolean,
    message?: string,
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
      ...(message ? { message } : {}),
    };
    await this.options.store.recordDecision(
      decision,
      { latencyMs: decidedAt - approval.issuedAt, votes, displayed },
      { trusted: true },
    );
    this.options.bus.publish({
      type: 'permission_resolved',
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      reply,
      decider,
      reason,
      ...(message ? { message } : {}),
    });
    if (reply.outcome !== 'selected') return { outcome: { outcome: 'cancelled' } };
    // The words ride in the outcome's `_meta` for an agent that reads them; for the others the
    // session hands them on with the person's next prompt (agents/reject-words.ts).
    const meta = message ? { _meta: { [REJECT_MESSAGE_META_KEY]: message } } : {};
    return { outcome: { outcome: 'selected', optionId: reply.optionId, ...meta } };
  }
}
