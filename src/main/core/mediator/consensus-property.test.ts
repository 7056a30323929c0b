import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  consensusQuorumFor,
  InvalidPermissionOptionError,
  type PermissionResolution,
  type PermissionVoteInput,
  type PermissionVoteOutcome,
} from '.';
import { makeHarness, proven, state, vote } from './harness.test-support';

// Property runs are thousands of cases: seconds each on a machine that is busy with other work.
vi.setConfig({ testTimeout: 60_000 });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type Ballot = readonly [voter: number, option: number];

/**
 * Independent oracle: an option "can still win" iff some way of letting the
 * voters who have not voted yet vote (or abstain) brings it to the quorum.
 * Brute force over every completion, nothing shared with the implementation.
 */
function someOptionCanStillWin(counts: number[], outstanding: number, quorum: number): boolean {
  if (counts.some((c) => c >= quorum)) return true;
  if (outstanding === 0) return false;
  for (let choice = -1; choice < counts.length; choice++) {
    const next = counts.slice();
    if (choice >= 0) next[choice] = (next[choice] ?? 0) + 1;
    if (someOptionCanStillWin(next, outstanding - 1, quorum)) return true;
  }
  return false;
}

type Expected =
  { at: number; resolution: PermissionResolution['kind']; optionIndex?: number } | { at: 'never' };

/** Index of the ballot that ends the request (-1: at issue time), and how. */
function expectedEnding(
  m: number,
  k: number,
  quorum: number,
  ballots: readonly Ballot[],
): Expected {
  const counts = new Array<number>(k).fill(0);
  if (!someOptionCanStillWin(counts, m, quorum)) return { at: -1, resolution: 'cancelled' };
  for (let i = 0; i < ballots.length; i++) {
    const [, option] = ballots[i] as Ballot;
    counts[option] = (counts[option] ?? 0) + 1;
    if ((counts[option] ?? 0) >= quorum)
      return { at: i, resolution: 'option', optionIndex: option };
    if (!someOptionCanStillWin(counts, m - (i + 1), quorum))
      return { at: i, resolution: 'cancelled' };
  }
  return { at: 'never' };
}

/** Every ordered sequence of distinct voters, each with an option: all assignments (with abstention) in all orders. */
function* allBallotSequences(m: number, k: number, prefix: Ballot[] = []): Generator<Ballot[]> {
  yield prefix;
  for (let voter = 0; voter < m; voter++) {
    if (prefix.some(([v]) => v === voter)) continue;
    for (let option = 0; option < k; option++) {
      yield* allBallotSequences(m, k, [...prefix, [voter, option]]);
    }
  }
}

const OPTIONS = ['x', 'y', 'z'];

async function runAndCheck(
  m: number,
  k: number,
  quorumOverride: number | undefined,
  ballots: readonly Ballot[],
  noise: (index: number, requestId: string) => PermissionVoteInput[] = () => [],
): Promise<void> {
  const voters = Array.from({ length: m }, (_, i) => `v${i}`);
  const options = OPTIONS.slice(0, k);
  const quorum = quorumOverride ?? consensusQuorumFor(m);
  const expected = expectedEnding(m, k, quorum, ballots);
  const h = makeHarness('consensus', {
    consensusQuorum: quorumOverride,
    emit: () => {},
    lateVote: () => {},
  });
  h.voters.set('s', voters);
  const requestId = 'r';
  const p = h.request(
    { requestId, sessionId: 's', allowedOptionIds: options, issuedAtMs: 0 },
    60_000,
  );

  const context = JSON.stringify({ m, k, quorum, ballots, expected });
  const outcomes: PermissionVoteOutcome[] = [];
  for (let i = 0; i < ballots.length; i++) {
    for (const n of noise(i, requestId)) {
      try {
        const outcome = h.mediator.vote(n);
        expect(outcome.kind, context).not.toBe('resolved');
        expect(outcome.kind, context).not.toBe('cancelled');
      } catch (error) {
        expect(error, context).toBeInstanceOf(InvalidPermissionOptionError);
      }
    }
    const [voter, option] = ballots[i] as Ballot;
    outcomes.push(h.mediator.vote(proven(requestId, options[option] as string, `v${voter}`)));
  }

  const settledBeforeTimeout = await state(p);
  if (expected.at === 'never') {
    expect(settledBeforeTimeout, context).toBe('pending');
    expect(
      outcomes.every((o) => o.kind === 'recorded'),
      context,
    ).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(await state(p), context).toEqual({ kind: 'cancelled', reason: 'timeout' });
    return;
  }

  // Exactly one ending, at the expected ballot, with the expected result; nothing after it counts.
  const endedAt = expected.at;
  outcomes.forEach((outcome, i) => {
    if (i < endedAt) expect(outcome.kind, context).toBe('recorded');
    else if (i > endedAt) expect(outcome.kind, context).toBe('already_resolved');
  });
  if (expected.resolution === 'option') {
    const optionId = options[expected.optionIndex ?? -1];
    expect(outcomes[endedAt], context).toEqual({ kind: 'resolved', resolvedOptionId: optionId });
    expect(settledBeforeTimeout, context).toMatchObject({ kind: 'option', optionId });
    const deciders = ballots
      .slice(0, endedAt + 1)
      .filter(([, o]) => o === expected.optionIndex)
      .map(([v]) => `v${v}`);
    expect(settledBeforeTimeout, context).toMatchObject({ decidedBy: { clientIds: deciders } });
  } else {
    if (endedAt >= 0)
      expect(outcomes[endedAt], context).toEqual({ kind: 'cancelled', reason: 'split_vote' });
    expect(settledBeforeTimeout, context).toEqual({ kind: 'cancelled', reason: 'split_vote' });
  }
  expect(h.mediator.pendingCount(), context).toBe(0);
  expect(vi.getTimerCount(), context).toBe(0);
}

describe('consensus over every vote assignment and order', () => {
  for (const m of [3, 4]) {
    for (const k of [2, 3]) {
      const quorums = [undefined, ...Array.from({ length: m + 1 }, (_, i) => i + 1)];
      it(`M=${m}, ${k} options: resolves exactly when an option reaches quorum, splits exactly when none can, once`, async () => {
        let sequences = 0;
        for (const quorum of quorums) {
          for (const ballots of allBallotSequences(m, k)) {
            await runAndCheck(m, k, quorum, ballots);
            sequences++;
          }
        }
        // Guards the enumerator itself: sum over v of C(m,v) * k^v * v!, per quorum.
        const perQuorum = Array.from({ length: m + 1 }, (_, v) => {
          let n = 1;
          for (let i = 0; i < v; i++) n *= (m - i) * k;
          return n;
        }).reduce((a, b) => a + b, 0);
        expect(sequences).toBe(perQuorum * quorums.length);
      });
    }
  }
});

describe('consensus property: votes that do not count never change the outcome', () => {
  const noiseVote = fc.oneof(
    fc.record({ kind: fc.constant('outsider' as const), option: fc.nat(2) }),
    fc.record({ kind: fc.constant('unproven' as const), voter: fc.nat(3), option: fc.nat(2) }),
    fc.record({ kind: fc.constant('anonymous' as const), option: fc.nat(2) }),
    fc.record({ kind: fc.constant('bad-option' as const), voter: fc.nat(3) }),
  );

  it('interleaving outsiders, unproven, anonymous and invalid votes leaves the clean outcome intact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(3, 4),
        fc.constantFrom(2, 3),
        fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        fc.array(fc.tuple(fc.nat(3), fc.nat(2)), { maxLength: 6 }),
        fc.array(fc.array(noiseVote, { maxLength: 3 }), { minLength: 6, maxLength: 6 }),
        async (m, k, quorum, raw, noisePlan) => {
          // Keep first ballot per voter within range (re-votes are covered by their own tests).
          const seen = new Set<number>();
          const ballots: Ballot[] = [];
          for (const [v, o] of raw) {
            const voter = v % m;
            if (seen.has(voter)) continue;
            seen.add(voter);
            ballots.push([voter, o % k]);
          }
          await runAndCheck(m, k, quorum, ballots, (i, requestId) =>
            (noisePlan[i] ?? []).map((n) => {
              switch (n.kind) {
                case 'outsider':
                  return proven(requestId, OPTIONS[n.option % k] as string, 'outsider');
                case 'unproven':
                  return vote(requestId, OPTIONS[n.option % k] as string, {
                    clientId: `v${n.voter % m}`,
                  });
                case 'anonymous':
                  return vote(requestId, OPTIONS[n.option % k] as string, { identityProven: true });
                case 'bad-option':
                  return proven(requestId, 'not-offered', `v${n.voter % m}`);
              }
            }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
