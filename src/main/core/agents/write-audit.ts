// How a write an agent asks for is audited and, when refused, announced: the same for a write
// Gatehouse performs for its own session and one an editor performs behind `gatehouse acp`.
import type { Decider } from '../../../shared/domain';
import type { WriteVerdict } from '../approvals/coverage';
import type { EventBus } from '../events/bus';
import type { Store } from '../store';
import type { Session } from './session';

export interface WriteAuditDeps {
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
}

type Refused = WriteVerdict & { covered: false };

/** The audit's words for what allowed a write or a command. */
export function allowedBy(
  verdict: { requestId: string } | { decider: Decider; reason: string },
): unknown {
  return 'requestId' in verdict
    ? { requestId: verdict.requestId }
    : { decider: verdict.decider, reason: verdict.reason };
}

export function approvalOf(verdict: WriteVerdict): string | undefined {
  return 'requestId' in verdict ? verdict.requestId : undefined;
}

export function auditWrite(
  session: Session,
  type: 'fs_write' | 'fs_write_refused',
  payload: unknown,
  verdict: WriteVerdict | null,
  deps: WriteAuditDeps,
): void {
  const requestId = verdict ? approvalOf(verdict) : undefined;
  deps.store.recordEvent({
    type,
    ...(requestId ? { requestId } : {}),
    sessionId: session.sessionId,
    agentId: session.agentId,
    at: deps.now(),
    payload,
  });
}

/**
 * Audits and announces a refused write; returns the message the agent is answered with (JSON-RPC
 * -32602) and the data that goes with it.
 */
export function refuseWrite(
  session: Session,
  path: string,
  verdict: Refused,
  deps: WriteAuditDeps,
): { message: string; data: Record<string, unknown> } {
  const { covered: _covered, ...refusal } = verdict;
  const why = verdict.why ? ` (${verdict.why})` : '';
  const message = `Refused: writing ${path}: ${verdict.reason}${why}`;
  auditWrite(session, 'fs_write_refused', { path, error: message, ...refusal }, verdict, deps);
  deps.bus.publish({
    type: 'write_refused',
    sessionId: session.sessionId,
    agentId: session.agentId,
    path: path.slice(0, 4096),
    reason: `${verdict.reason}${why}`.slice(0, 2000),
  });
  return { message, data: { path, ...refusal } };
}
