// Mediator throughput: 100 sessions × 100 requests, first-responder and consensus (M = 3), alone
// (the baseline) and with every decision committed to SQLite before it counts as answered — the
// pipeline's promise. Figures are ratios against the baseline measured in the same run.
//   npx tsx bench/mediator.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import type { Decision, PendingApproval } from '../src/shared/domain';
import { MultiClientPermissionMediator, type PermissionPolicy } from '../src/main/core/mediator';
import { openStore, type Store } from '../src/main/core/store';
import { quantiles, round, type Report } from './report';

const SESSIONS = 100;
const PER_SESSION = 100;
const VOTERS = ['alice', 'bob', 'carol'];
const OPTIONS = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
];

function approval(requestId: string, sessionId: string, now: number): PendingApproval {
  return {
    requestId,
    sessionId,
    agentId: 'bench',
    agentName: 'Bench',
    cwd: '/work',
    toolCall: {
      toolCallId: requestId,
      kind: 'edit',
      title: 'Write a.txt',
      locations: [{ path: '/work/a.txt' }],
      content: [],
    },
    options: OPTIONS,
    policy: 'first-responder',
    issuedAt: now,
    expiresAt: now + 300_000,
    warnings: [],
    diffs: [],
    command: null,
    tally: null,
  };
}

interface RunResult {
  decisionsPerSecond: number;
  voteLatencyUs: { p50: number; p99: number };
}

async function run(policy: PermissionPolicy, store: Store | null): Promise<RunResult> {
  const mediator = new MultiClientPermissionMediator(policy, {
    emit: () => {},
    lateVote: () => {},
    votersForSession: () => VOTERS,
  });
  const voteNs: number[] = [];
  const sessions = Array.from({ length: SESSIONS }, () => uuidv7());
  const started = performance.now();
  // Every session keeps one request in flight, as an agent turn does; 100 in flight overall.
  await Promise.all(
    sessions.map(async (sessionId) => {
      for (let i = 0; i < PER_SESSION; i++) {
        const requestId = uuidv7();
        const now = Date.now();
        store?.recordRequest(approval(requestId, sessionId, now), {}, { trusted: true });
        const decided = mediator.request(
          { requestId, sessionId, allowedOptionIds: ['yes', 'no'], issuedAtMs: now },
          300_000,
        );
        const voters = policy === 'consensus' ? VOTERS.slice(0, 2) : VOTERS.slice(0, 1);
        for (const clientId of voters) {
          const t = process.hrtime.bigint();
          mediator.vote({
            requestId,
            clientId,
            optionId: 'yes',
            fromLoopback: true,
            identityProven: true,
            receivedAtMs: now,
          });
          voteNs.push(Number(process.hrtime.bigint() - t));
        }
        const { resolution: outcome } = await decided;
        if (store) {
          const decision: Decision = {
            requestId,
            sessionId,
            agentId: 'bench',
            reply: {
              outcome: 'selected',
              optionId: outcome.kind === 'option' ? outcome.optionId : 'no',
              optionKind: 'allow_once',
            },
            decider: { type: 'person', clientId: 'alice', surface: 'api' },
            decidedAt: Date.now(),
            reason: policy,
          };
          await store.recordDecision(decision, { latencyMs: 0 }, { trusted: true });
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const q = quantiles(voteNs.map((ns) => ns / 1000));
  return {
    decisionsPerSecond: (SESSIONS * PER_SESSION) / seconds,
    voteLatencyUs: { p50: q.p50, p99: q.p99 },
  };
}

/**
 * The mediator's own capacity, no I/O and no per-request awaits: all 10k requests issued, then
 * every vote cast, then every resolution collected. Ids are made before the clock starts. Per CPU
 * second of this process, not wall time: on a shared machine a burst of a few tens of ms is often
 * descheduled, which made the two policies' ratio swing from 0.4 to 1.2 between runs.
 */
async function burst(policy: PermissionPolicy): Promise<number> {
  const mediator = new MultiClientPermissionMediator(policy, {
    emit: () => {},
    lateVote: () => {},
    votersForSession: () => VOTERS,
  });
  const sessions = Array.from({ length: SESSIONS }, () => uuidv7());
  const ids = Array.from({ length: SESSIONS * PER_SESSION }, () => uuidv7());
  const voters = policy === 'consensus' ? VOTERS.slice(0, 2) : VOTERS.slice(0, 1);
  const cpu = process.cpuUsage();
  const now = Date.now();
  const resolutions = ids.map((requestId, i) =>
    mediator.request(
      {
        requestId,
        sessionId: sessions[i % SESSIONS]!,
        allowedOptionIds: ['yes', 'no'],
        issuedAtMs: now,
      },
      300_000,
    ),
  );
  for (const requestId of ids) {
    for (const clientId of voters) {
      mediator.vote({
        requestId,
        clientId,
        optionId: 'yes',
        fromLoopback: true,
        identityProven: true,
        receivedAtMs: now,
      });
    }
  }
  await Promise.all(resolutions);
  const used = process.cpuUsage(cpu);
  return ids.length / ((used.user + used.system) / 1e6);
}

const WARM_UP_PAIRS = 3; // the JIT settles after a few rounds
const MEASURED_PAIRS = 15;

interface BurstSamples {
  firstResponder: number[];
  consensus: number[];
  /** Consensus over first-responder, one pair of bursts measured back to back. */
  pairRatios: number[];
}

/**
 * The two policies' bursts in alternation. Measured one policy after the other, best of five each,
 * their ratio swung 0.5–0.9 between runs: a major collection, or a change in the machine's load,
 * landed on one policy's bursts and not the other's. Held is the median of the pairs' ratios, which
 * one such burst moves by one pair; the best-of ratio is reported beside it.
 */
async function alternatingBursts(): Promise<BurstSamples> {
  const samples: BurstSamples = { firstResponder: [], consensus: [], pairRatios: [] };
  for (let i = 0; i < WARM_UP_PAIRS + MEASURED_PAIRS; i++) {
    const firstResponder = await burst('first-responder');
    const consensus = await burst('consensus');
    if (i < WARM_UP_PAIRS) continue;
    samples.firstResponder.push(firstResponder);
    samples.consensus.push(consensus);
    samples.pairRatios.push(consensus / firstResponder);
  }
  return samples;
}

export async function benchMediator(report: Report): Promise<void> {
  const bursts = await alternatingBursts();
  const capacities = new Map<PermissionPolicy, number[]>([
    ['first-responder', bursts.firstResponder],
    ['consensus', bursts.consensus],
  ]);
  for (const policy of ['first-responder', 'consensus'] as const) {
    await run(policy, null); // warm-up
    const alone = await run(policy, null);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-mediator-'));
    const store = await openStore({ path: join(dir, 'bench.db') });
    try {
      const audited = await run(policy, store);
      report(`mediator ${policy}: ${SESSIONS} sessions × ${PER_SESSION} requests`, {
        mediator_alone_burst_per_cpu_s: Math.round(quantiles(capacities.get(policy)!).p50),
        baseline_decisions_per_s: Math.round(alone.decisionsPerSecond),
        audited_decisions_per_s: Math.round(audited.decisionsPerSecond),
        audited_vs_baseline: round(audited.decisionsPerSecond / alone.decisionsPerSecond, 3),
        vote_p50_us: round(alone.voteLatencyUs.p50, 2),
        vote_p99_us: round(alone.voteLatencyUs.p99, 2),
        audited_vote_p50_us: round(audited.voteLatencyUs.p50, 2),
        audited_vote_p99_us: round(audited.voteLatencyUs.p99, 2),
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Two votes and a partial-vote event per request against one vote: the held ratio is ≥ 0.8.
  report('mediator: consensus burst vs first-responder burst', {
    ratio: round(quantiles(bursts.pairRatios).p50, 2),
    best_of_ratio: round(Math.max(...bursts.consensus) / Math.max(...bursts.firstResponder), 2),
    pairs: MEASURED_PAIRS,
    target: 0.8,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printReport } = await import('./report');
  await benchMediator(printReport);
}
