// An agent's question (ACP `elicitation/create`) on the request path: checked, then held by the
// same mediator as a permission request — one queue, one countdown, one policy — and answered with
// the protocol's own actions. A question no one answers ends as `cancel`, never as an answer.
import { RequestError, type CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { newId } from '../ids';
import type { Decider, PendingApproval, PermissionPolicy } from '../../../shared/domain';
import type { PendingQuestion, QuestionAnswer } from '../../../shared/question';
import type { EventBus } from '../events/bus';
import type { MultiClientPermissionMediator, PermissionDecision } from '../mediator';
import { parseQuestionRequest } from '../safety/question-request';
import { MAX_PENDING_PER_SESSION } from '../safety/limits';
import type { Store } from '../store';
import { deciderFor } from './decision-audit';
import type { PendingQueue, PendingView } from './pending';
import type { SessionContext } from './session-context';

/** The two answers a person gives; a cancel is the mediator's (timeout, cancelled turn, closed session). */
export const QUESTION_OPTIONS = [
  { optionId: 'accept', name: 'Accept', kind: 'allow_once' },
  { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
] as const satisfies PendingApproval['options'];

/** How long an answered value is kept in the audit: enough to read, never a whole file. */
const AUDIT_VALUE_CHARS = 500;

/** What a question needs of the pipeline's options besides its mediator, queue and clock. */
export interface QuestionDeps {
  store: Pick<Store, 'recordEvent'> & Partial<Pick<Store, 'flush'>>;
  bus: EventBus;
  timeoutMs: () => number;
}

/**
 * Who answers a question under each policy. Consensus has nothing to tally in a form's free text,
 * so a question is answered by the first voter consensus would count: a paired client (an unpaired
 * API client's vote is refused, as the `answerQuestion` command checks). Designated and local-only
 * hold as they do for a permission request.
 */
export function questionPolicy(policy: PermissionPolicy): PermissionPolicy {
  return policy === 'consensus' ? 'first-responder' : policy;
}

function auditedAnswer(answer: QuestionAnswer | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answer ?? {})) {
    out[name] =
      typeof value === 'string' && value.length > AUDIT_VALUE_CHARS
        ? `${value.slice(0, AUDIT_VALUE_CHARS)}… (${value.length} characters)`
        : value;
  }
  return out;
}

/** What the audit keeps of the question itself: its fields by name and type, or the link. */
function askedPayload(question: PendingQuestion): Record<string, unknown> {
  const common = {
    mode: question.mode,
    message: question.message,
    toolCallId: question.toolCallId,
  };
  if (question.mode === 'url')
    return {
      ...common,
      url: question.url,
      host: question.host,
      elicitationId: question.elicitationId,
    };
  return {
    ...common,
    fields: question.form.fields.map((f) => ({ name: f.name, type: f.type, required: f.required })),
  };
}

export class QuestionDesk {
  constructor(
    private readonly options: QuestionDeps,
    private readonly mediator: MultiClientPermissionMediator<PendingView>,
    private readonly pending: PendingQueue,
    private readonly now: () => number,
  ) {}

  private audit(type: string, session: SessionContext, requestId: string, payload: unknown): void {
    this.options.store.recordEvent({
      type,
      requestId,
      sessionId: session.sessionId,
      agentId: session.agentId,
      at: this.now(),
      payload,
    });
  }

  /** Refused, audited, and the agent told why with a JSON-RPC error. */
  private async refuse(
    session: SessionContext,
    requestId: string,
    refusal: string,
    problems: string[],
  ): Promise<never> {
    this.audit('question_refused', session, requestId, {
      refusal,
      problems: problems.slice(0, 20),
    });
    await this.options.store.flush?.();
    const words: Record<string, string> = {
      secret:
        'a form must not ask for a password, key or token: the protocol sends secrets through URL mode',
      outside_subset: 'the form is outside the supported schema subset',
      too_large: 'the request is larger than a question may be',
      unsupported_mode: 'unsupported question',
      unsafe_url: 'the link is refused',
      malformed: 'malformed elicitation/create',
      session: 'not this agent’s session',
      queue_full: 'too many requests are waiting for a person in this session',
    };
    throw RequestError.invalidParams(
      { refusal, problems: problems.slice(0, 20) },
      `elicitation/create refused: ${words[refusal] ?? refusal}: ${problems.slice(0, 3).join('; ')}`,
    );
  }

  async ask(session: SessionContext, raw: unknown): Promise<CreateElicitationResponse> {
    const requestId = newId();
    const parsed = parseQuestionRequest(raw);
    if (!parsed.ok) return this.refuse(session, requestId, parsed.refusal, parsed.problems);
    if (parsed.sessionId !== session.acpSessionId)
      return this.refuse(session, requestId, 'session', [`unknown session ${parsed.sessionId}`]);
    const { question } = parsed;
    if (session.endReason)
      return this.cancelled(
        session,
        requestId,
        session.endReason,
        { type: session.endReason },
        false,
      );
    if (this.pending.countFor(session.sessionId) >= MAX_PENDING_PER_SESSION)
      return this.refuse(session, requestId, 'queue_full', [`${MAX_PENDING_PER_SESSION} waiting`]);
    const issuedAt = this.now();
    const approval: PendingApproval = {
      requestId,
      sessionId: session.sessionId,
      agentId: session.agentId,
      agentName: session.agentName,
      cwd: session.cwd,
      // The queue, the tray and the notifications list a question by this title: the agent's words.
      // Its own id: a question names a tool call (question.toolCallId) but is not that call.
      toolCall: {
        toolCallId: `question-${requestId}`,
        kind: 'other',
        title: question.message.slice(0, 200),
        locations: [],
        content: [],
      },
      options: [...QUESTION_OPTIONS],
      policy: session.policy,
      issuedAt,
      expiresAt: issuedAt + this.options.timeoutMs(),
      warnings: [],
      diffs: [],
      command: null,
      tally: null,
      question,
    };
    this.audit('question_asked', session, requestId, askedPayload(question));
    const view: PendingView = { approval, displayed: false, judged: { session, whole: approval } };
    const decided = this.mediator.request(
      {
        requestId,
        sessionId: session.sessionId,
        originatorClientId: session.promptClientId ?? undefined,
        promptId: session.promptId ?? undefined,
        allowedOptionIds: QUESTION_OPTIONS.map((o) => o.optionId),
        issuedAtMs: issuedAt,
      },
      approval.expiresAt - issuedAt,
      { policy: questionPolicy(session.policy) },
      view,
    );
    view.approval = {
      ...approval,
      expiresAt: this.mediator.expiresAt(requestId) ?? approval.expiresAt,
    };
    this.options.bus.publish({ type: 'permission_requested', approval: view.approval });
    return this.answer(session, view.approval, await decided);
  }

  private async answer(
    session: SessionContext,
    approval: PendingApproval,
    decision: PermissionDecision,
  ): Promise<CreateElicitationResponse> {
    const { resolution } = decision;
    const requestId = approval.requestId;
    if (resolution.kind !== 'option')
      return this.cancelled(session, requestId, resolution.reason, deciderFor(decision, session));
    const decider = deciderFor(decision, session);
    const vote = decision.votes.find((v) => v.optionId === resolution.optionId);
    let response: CreateElicitationResponse;
    if (resolution.optionId === 'accept') {
      const content = vote?.metadata?.answer;
      this.audit('question_answered', session, requestId, {
        decider,
        fields: auditedAnswer(content),
      });
      response =
        approval.question?.mode === 'form'
          ? { action: 'accept', content: content ?? {} }
          : { action: 'accept' };
    } else {
      this.audit('question_declined', session, requestId, { decider });
      response = { action: 'decline' };
    }
    await this.options.store.flush?.();
    this.resolved(approval, resolution.optionId === 'accept' ? 0 : 1, decider, response.action);
    return response;
  }

  /** Ended without an answer: the protocol's cancel, audited with why. */
  private async cancelled(
    session: SessionContext,
    requestId: string,
    reason: string,
    decider: Decider,
    announced = true,
  ): Promise<CreateElicitationResponse> {
    const type = reason === 'timeout' ? 'question_timed_out' : 'question_cancelled';
    this.audit(type, session, requestId, { reason, decider });
    await this.options.store.flush?.();
    // Told only of a question every client was shown: one that never waited ends unannounced.
    if (announced)
      this.options.bus.publish({
        type: 'permission_resolved',
        requestId,
        sessionId: session.sessionId,
        reply: { outcome: 'cancelled' },
        decider,
        reason,
      });
    return { action: 'cancel' };
  }

  private resolved(
    approval: PendingApproval,
    index: 0 | 1,
    decider: Decider,
    reason: string,
  ): void {
    const option = QUESTION_OPTIONS[index];
    this.options.bus.publish({
      type: 'permission_resolved',
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      reply: { outcome: 'selected', optionId: option.optionId, optionKind: option.kind },
      decider,
      reason,
    });
  }
}
