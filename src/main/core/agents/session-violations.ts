// What the sandbox refused a session's agent: audited, kept in the history and shown.
import type { EventBus } from '../events/bus';
import { logger } from '../log/logger';
import { blockedKind, violationEntry } from '../sandbox/violation-history';
import {
  createViolationReporter,
  type SandboxViolation,
  type ViolationReporter,
} from '../sandbox/violation-reporter';
import type { Store } from '../store';
import type { Session } from './session';

const log = logger('sessions');

export interface ViolationDeps {
  store: Pick<Store, 'recordEvent' | 'recordRequest' | 'recordDecision'>;
  bus: EventBus;
  now: () => number;
}

/** One refusal; the reporter has already limited how often. */
export function reportViolation(
  session: Session,
  violation: SandboxViolation,
  deps: ViolationDeps,
): void {
  const { kind, target, ...detail } = violation;
  const at = deps.now();
  deps.store.recordEvent({
    type: 'sandbox_violation',
    sessionId: session.sessionId,
    agentId: session.agentId,
    at,
    payload: { kind, target, ...detail },
  });
  const { request, decision } = violationEntry(session, violation, at);
  deps.store.recordRequest(request, { promptId: session.promptId }, { trusted: true });
  // The event above is the audit of record; a history line that fails to land is only reported.
  deps.store
    .recordDecision(decision, { latencyMs: 0, displayed: false }, { trusted: true })
    .catch((error: Error) => log.error('sandbox violation history:', error.message));
  deps.bus.publish({
    type: 'sandbox_violation',
    sessionId: session.sessionId,
    agentId: session.agentId,
    kind,
    blocked: blockedKind(violation),
    target: target.slice(0, 4096),
    ...(violation.repeated ? { repeated: true as const } : {}),
    ...(violation.protected ? { protectedBy: shownProtection(violation.protected) } : {}),
  });
}

function shownProtection(label: NonNullable<SandboxViolation['protected']>) {
  const { entry, runs, movedTo } = label;
  return {
    entry: entry.slice(0, 1024),
    runs: runs.slice(0, 500),
    ...(movedTo === undefined ? {} : { movedTo: movedTo?.slice(0, 4096) ?? null }),
  };
}

/** The reporter of a session's refusals: each is audited, kept in the history and shown. */
export function violationReporterFor(session: Session, deps: ViolationDeps): ViolationReporter {
  return createViolationReporter(
    (violation) => reportViolation(session, violation, deps),
    deps.now,
  );
}
