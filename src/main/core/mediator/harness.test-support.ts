import { vi } from 'vitest';
import {
  MultiClientPermissionMediator,
  type MultiClientPermissionMediatorOptions,
  type PermissionDecision,
  type PermissionLateVote,
  type PermissionMediatorEvent,
  type PermissionPolicy,
  type PermissionRequestOptions,
  type PermissionRequestRecord,
  type PermissionResolution,
  type PermissionVoteInput,
} from '.';

export interface Harness {
  mediator: MultiClientPermissionMediator;
  /**
   * `mediator.request`, answering with the resolution of the decision it resolves with; the whole
   * decision is kept for `decisions()`.
   */
  request(
    record: PermissionRequestRecord,
    timeoutMs: number,
    options?: PermissionRequestOptions,
  ): Promise<PermissionResolution>;
  events: Array<{ sessionId: string; event: PermissionMediatorEvent }>;
  lateVotes: PermissionLateVote[];
  voters: Map<string, string[]>;
  votersForSession: ReturnType<typeof vi.fn<(sessionId: string) => Iterable<string>>>;
  eventsOfType<T extends PermissionMediatorEvent['type']>(
    type: T,
  ): Array<Extract<PermissionMediatorEvent, { type: T }>>;
  /** The decisions of the requests ended so far, in the order they ended. */
  decisions(): Promise<PermissionDecision[]>;
  /** A request of `record(overrides)` asked with a one-minute timeout: the record and its answer. */
  ask(overrides?: Partial<PermissionRequestRecord>): {
    r: PermissionRequestRecord;
    p: Promise<PermissionResolution>;
  };
  /** `mediator.vote` of a client that presented its token, on request `r`. */
  voteProven(
    r: PermissionRequestRecord,
    optionId: string,
    clientId: string,
    overrides?: Parameters<typeof proven>[3],
  ): ReturnType<MultiClientPermissionMediator['vote']>;
}

export function makeHarness(
  policy: PermissionPolicy = 'first-responder',
  overrides: Partial<MultiClientPermissionMediatorOptions> = {},
): Harness {
  const events: Harness['events'] = [];
  const lateVotes: PermissionLateVote[] = [];
  const decided: PermissionDecision[] = [];
  const voters = new Map<string, string[]>();
  const votersForSession = vi.fn(
    (sessionId: string): Iterable<string> => voters.get(sessionId) ?? [],
  );
  const mediator = new MultiClientPermissionMediator(policy, {
    emit: (sessionId, event) => {
      events.push({ sessionId, event });
    },
    lateVote: (record) => {
      lateVotes.push(record);
    },
    votersForSession,
    reportError: () => {},
    ...overrides,
  });
  const request: Harness['request'] = (record, timeoutMs, options) =>
    mediator.request(record, timeoutMs, options).then((decision) => {
      decided.push(decision);
      return decision.resolution;
    });
  return {
    mediator,
    request,
    ask: (overrides) => {
      const r = record(overrides);
      return { r, p: request(r, 60_000) };
    },
    voteProven: (r, optionId, clientId, overrides) =>
      mediator.vote(proven(r.requestId, optionId, clientId, overrides)),
    events,
    lateVotes,
    voters,
    votersForSession,
    eventsOfType: (type) =>
      events
        .map((e) => e.event)
        .filter(
          (e): e is Extract<PermissionMediatorEvent, { type: typeof type }> => e.type === type,
        ),
    decisions: async () => {
      // A decision settles its promise synchronously; its reaction runs before this continuation.
      await Promise.resolve();
      return [...decided];
    },
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

/** Settled value of a promise from `request`, or 'pending', without advancing timers. */
export async function state(
  promise: Promise<PermissionResolution>,
): Promise<PermissionResolution | 'pending'> {
  const marker = Symbol('pending');
  // `request` answers one reaction after the mediator settles: the marker waits that long too.
  const later = Promise.resolve().then(() => marker);
  const result = await Promise.race([promise, later]);
  return result === marker ? 'pending' : (result as PermissionResolution);
}

/** What `mediator.vote` answers when the vote decides the request. */
export const resolved = (optionId: string) => ({ kind: 'resolved', resolvedOptionId: optionId });

/** A request's answer: an option, decided for `reason` by `clientIds`. */
export const decided = (optionId: string, reason: string, clientIds: string[]) => ({
  kind: 'option',
  optionId,
  decidedBy: { reason, clientIds },
});
