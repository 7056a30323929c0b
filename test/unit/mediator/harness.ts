import { vi } from 'vitest';
import {
  MultiClientPermissionMediator,
  type MultiClientPermissionMediatorOptions,
  type PermissionAuditRecord,
  type PermissionDecisionAudit,
  type PermissionMediatorEvent,
  type PermissionPolicy,
  type PermissionRequestRecord,
  type PermissionResolution,
  type PermissionVoteInput,
} from '../../../src/main/core/mediator';

export interface Harness {
  mediator: MultiClientPermissionMediator;
  events: Array<{ sessionId: string; event: PermissionMediatorEvent }>;
  audits: PermissionAuditRecord[];
  voters: Map<string, string[]>;
  votersForSession: ReturnType<typeof vi.fn<(sessionId: string) => Iterable<string>>>;
  eventsOfType<T extends PermissionMediatorEvent['type']>(
    type: T,
  ): Array<Extract<PermissionMediatorEvent, { type: T }>>;
  decisions(): PermissionDecisionAudit[];
}

export function makeHarness(
  policy: PermissionPolicy = 'first-responder',
  overrides: Partial<MultiClientPermissionMediatorOptions> = {},
): Harness {
  const events: Harness['events'] = [];
  const audits: PermissionAuditRecord[] = [];
  const voters = new Map<string, string[]>();
  const votersForSession = vi.fn(
    (sessionId: string): Iterable<string> => voters.get(sessionId) ?? [],
  );
  const mediator = new MultiClientPermissionMediator(policy, {
    emit: (sessionId, event) => {
      events.push({ sessionId, event });
    },
    audit: (record) => {
      audits.push(record);
    },
    votersForSession,
    reportError: () => {},
    ...overrides,
  });
  return {
    mediator,
    events,
    audits,
    voters,
    votersForSession,
    eventsOfType: (type) =>
      events
        .map((e) => e.event)
        .filter(
          (e): e is Extract<PermissionMediatorEvent, { type: typeof type }> => e.type === type,
        ),
    decisions: () => audits.filter((a): a is PermissionDecisionAudit => a.kind === 'decision'),
  };
}

let counter = 0;

export function record(overrides: Partial<PermissionRequestRecord> = {}): PermissionRequestRecord {
  counter++;
  return {
    requestId: `req-${counter}`,
    sessionId: 's1',
    allowedOptionIds: ['allow', 'reject'],
    issuedAtMs: 1_000,
    ...overrides,
  };
}

export function vote(
  requestId: string,
  optionId: string,
  overrides: Partial<Omit<PermissionVoteInput, 'requestId' | 'optionId'>> = {},
): PermissionVoteInput {
  return { requestId, optionId, fromLoopback: false, receivedAtMs: 2_000, ...overrides };
}

/** A vote from a client that presented its token. */
export function proven(
  requestId: string,
  optionId: string,
  clientId: string,
  overrides: Partial<Omit<PermissionVoteInput, 'requestId' | 'optionId' | 'clientId'>> = {},
): PermissionVoteInput {
  return vote(requestId, optionId, { clientId, identityProven: true, ...overrides });
}

/** Settled value of a promise, or 'pending', without advancing timers. */
export async function state(
  promise: Promise<PermissionResolution>,
): Promise<PermissionResolution | 'pending'> {
  const marker = Symbol('pending');
  const result = await Promise.race([promise, Promise.resolve(marker)]);
  return result === marker ? 'pending' : (result as PermissionResolution);
}
