// What the pipeline tells others besides the agent: the mediator's announcements in the words
// every client knows (the queue follows them), and the audit records of votes that came late and
// of requests refused as malformed.
import type { EventBus } from '../events/bus';
import type { PermissionLateVote, PermissionMediatorEvent } from '../mediator';
import type { AuditEventInput } from '../store';
import type { SessionContext } from './session-context';
import { voteTally, type PendingQueue } from './pending';

/** Publishes what the mediator announces; a resolution is published once it is committed. */
export function announce(
  event: PermissionMediatorEvent,
  bus: EventBus,
  pending: Pick<PendingQueue, 'update'>,
): void {
  switch (event.type) {
    case 'permission_partial_vote': {
      const tally = voteTally(event);
      pending.update(event.requestId, { tally });
      bus.publish({
        type: 'permission_partial_vote',
        requestId: event.requestId,
        sessionId: event.sessionId,
        tally,
      });
      return;
    }
    case 'permission_forbidden':
      bus.publish({
        type: 'permission_forbidden',
        requestId: event.requestId,
        sessionId: event.sessionId,
        clientId: event.clientId ?? null,
        reason: event.reason,
      });
      return;
    case 'permission_timeout_extended':
      pending.update(event.requestId, { expiresAt: event.expiresAtMs });
      bus.publish({
        type: 'permission_extended',
        requestId: event.requestId,
        expiresAt: event.expiresAtMs,
      });
      return;
    case 'permission_resolved':
      // Published by the pipeline's `conclude` once the decision is committed, with its decider.
      return;
  }
}

/** A vote on a decided request changes nothing, but the audit keeps it. */
export function lateVoteEvent(vote: PermissionLateVote): AuditEventInput {
  return {
    type: 'late_vote',
    requestId: vote.requestId,
    sessionId: vote.sessionId,
    at: vote.receivedAtMs,
    payload: {
      clientId: vote.clientId ?? null,
      optionId: vote.optionId,
      resolvedOptionId: vote.resolvedOptionId,
      surface: vote.metadata?.surface ?? null,
    },
  };
}

/** A request whose JSON shape alone was refused: nothing recursive has looked at it. */
export function shapeRefusedEvent(
  session: SessionContext,
  requestId: string,
  problem: string,
  shape: unknown,
  at: number,
): AuditEventInput {
  const { sessionId, agentId } = session;
  return {
    type: 'malformed_request',
    requestId,
    sessionId,
    agentId,
    at,
    payload: { problems: [problem], shape },
  };
}

/** A request refused before anyone saw it: why, and a bounded copy of what the agent sent. */
export function malformedEvent(
  session: SessionContext,
  requestId: string,
  raw: unknown,
  problems: string[],
  at: number,
): AuditEventInput {
  return {
    type: 'malformed_request',
    requestId,
    sessionId: session.sessionId,
    agentId: session.agentId,
    at,
    payload: { problems, request: boundedJson(raw) },
  };
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
