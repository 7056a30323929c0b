// What the OpenTelemetry export costs a decision: a scripted agent asks N times in one turn, each
// request decided by a rule (the fastest path: validate, rules, commit, reply), with the export off
// (the floor), to a collector that answers, to one that hangs (reads every request, never answers)
// and to one that is down. Figures are the agent's own: from its request to the answer it read.
//   npx tsx bench/telemetry.ts            (BENCH_TELEMETRY_REQUESTS=400 by default)
import { pathToFileURL } from 'node:url';
import type { SettingsInput } from '../src/shared/settings';
import type { ScriptStep } from '../test/support/agents/scripted-agent';
import { startScriptedSession } from '../test/support/gatehouse';
import { startOtlpReceiver, type OtlpReceiver } from '../test/support/otlp-receiver';
import { printReport, quantiles, round, type Report } from './report';

const REQUESTS = Number(process.env.BENCH_TELEMETRY_REQUESTS ?? 400);

const ask = (i: number): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: `t${i}`,
    kind: 'execute',
    title: 'git status',
    rawInput: { command: 'git status' },
  },
  options: [
    { optionId: 'go', name: 'Go', kind: 'allow_once' },
    { optionId: 'stop', name: 'Stop', kind: 'reject_once' },
  ],
  announce: false,
});

/** The agent's clock when it logged the line (ms since it started). */
const at = (line: object) => (line as { t: number }).t;

interface Figures {
  perDecisionMs: number;
  p50: number;
  p99: number;
}

async function turn(telemetry: SettingsInput['telemetry']): Promise<Figures> {
  const s = await startScriptedSession(
    { prompts: [[ask(-1)], Array.from({ length: REQUESTS }, (_, i) => ask(i))] },
    { settings: { rules: [{ id: 'ok', action: 'allow', command: 'git status' }], telemetry } },
  );
  try {
    // A first turn warms the shell analysis cache and the agent's connection.
    await s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'warm' });
    const started = performance.now();
    await s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const elapsed = performance.now() - started;
    const sentAt = new Map<number, number>();
    const samples: number[] = [];
    for (const line of s.log()) {
      if (line.msg.id === undefined) continue;
      if (line.dir === 'out' && line.msg.method === 'session/request_permission') {
        sentAt.set(line.msg.id, at(line));
      } else if (line.dir === 'in' && line.msg.result?.outcome && sentAt.has(line.msg.id)) {
        samples.push(at(line) - sentAt.get(line.msg.id)!);
      }
    }
    const q = quantiles(samples.slice(1));
    return { perDecisionMs: elapsed / REQUESTS, p50: q.p50, p99: q.p99 };
  } finally {
    await s.close();
  }
}

export async function benchTelemetry(report: Report): Promise<void> {
  const receiver: OtlpReceiver = await startOtlpReceiver();
  const otlp = () => ({
    otlp: { endpoint: receiver.url, exportDelayMs: 10, retryDelayMs: 100, metricsIntervalMs: 100 },
  });
  try {
    // Two rounds, the best of each kept: the machine is shared, and the first runs also warm the JIT.
    const best: Partial<Record<'floor' | 'healthy' | 'hanging' | 'down', Figures>> = {};
    const keep = (name: keyof typeof best, f: Figures) => {
      if (!best[name] || f.perDecisionMs < best[name].perDecisionMs) best[name] = f;
    };
    for (let pass = 0; pass < 2; pass++) {
      keep('floor', await turn({}));
      keep('healthy', await turn(otlp()));
      receiver.hang(true);
      keep('hanging', await turn(otlp()));
      receiver.hang(false);
      await receiver.down();
      keep('down', await turn(otlp()));
      await receiver.up();
    }
    const { floor, healthy, hanging, down } = best as Record<keyof typeof best, Figures>;
    const ratio = (f: Figures) => round(f.perDecisionMs / floor.perDecisionMs, 2);
    report(`telemetry: ${REQUESTS} rule decisions in one turn, agent-side latency`, {
      floor_ms_per_decision: round(floor.perDecisionMs),
      floor_p50_ms: floor.p50,
      floor_p99_ms: floor.p99,
      collector_ms_per_decision: round(healthy.perDecisionMs),
      collector_x_floor: ratio(healthy),
      collector_p99_ms: healthy.p99,
      hanging_ms_per_decision: round(hanging.perDecisionMs),
      hanging_x_floor: ratio(hanging),
      hanging_p99_ms: hanging.p99,
      down_ms_per_decision: round(down.perDecisionMs),
      down_x_floor: ratio(down),
      down_p99_ms: down.p99,
      records_received: receiver.logs.length,
    });
  } finally {
    await receiver.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchTelemetry(printReport);
}
