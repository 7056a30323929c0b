// The audit exported as OpenTelemetry logs and metrics, to an OTLP/HTTP receiver the test runs: one
// record per request, vote and decision with every attribute, through the real pipeline and a real
// agent; a collector that is down loses nothing and gets nothing twice; diff contents stay home
// unless asked for; what a hostile agent puts in a request cannot reshape a record.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databasePath } from '../../src/main/core/store';
import { ATTRIBUTE_VALUE_LIMIT } from '../../src/main/core/telemetry';
import type { Rule } from '../../src/shared/rules';
import type { SettingsInput } from '../../src/shared/settings';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import {
  exportCursor,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedLog,
} from '../support/otlp-receiver';
import { startOtlpGrpcReceiver, type OtlpGrpcReceiver } from '../support/otlp-grpc-receiver';

const OPTIONS = [
  { optionId: 'go', name: 'Go', kind: 'allow_once' as const },
  { optionId: 'stop', name: 'Stop', kind: 'reject_once' as const },
];
let calls = 0;
const run = (command: string, title = command): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId: `sh-${++calls}`, kind: 'execute', title, rawInput: { command } },
  options: OPTIONS,
});
const edit = (path: string, newText: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: `ed-${++calls}`,
    kind: 'edit',
    title: `Edit ${path}`,
    locations: [{ path }],
    content: [{ type: 'diff', path, oldText: 'old line', newText }],
  },
  options: OPTIONS,
});
const RULES: Rule[] = [
  { id: 'git-ok', action: 'allow', command: 'git status' },
  { id: 'no-rm', action: 'deny', command: 'rm -rf' },
];

const otlp = (
  receiver: OtlpReceiver,
  more: Record<string, unknown> = {},
): SettingsInput['telemetry'] => ({
  otlp: {
    endpoint: receiver.url,
    exportDelayMs: 20,
    retryDelayMs: 100,
    metricsIntervalMs: 200,
    ...more,
  },
});

/** How long the collector stays down: four retry delays (100 ms each, set below). */
const OUTAGE_MS = 400;

const decisionsIn = (logs: ReceivedLog[]) =>
  logs.filter((l) => l.eventName === 'gatehouse.decision');

function chainHash(home: string, seq: number): string {
  const db = new Database(databasePath(home), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT hash FROM audit_log WHERE seq = ?').pluck().get(seq) as string;
  } finally {
    db.close();
  }
}

/** Every record received at most once: by its audit seq. */
function expectNoneTwice(logs: ReceivedLog[]) {
  const seqs = logs.map((l) => l.attributes['gatehouse.audit.seq']);
  expect(new Set(seqs).size).toBe(seqs.length);
}

describe('OpenTelemetry export of the audit', () => {
  let session: ScriptedSession | undefined;
  let receiver: OtlpReceiver | undefined;
  let grpc: OtlpGrpcReceiver | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await session?.close();
    await receiver?.close();
    await grpc?.close();
    grpc = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    session = receiver = folder = undefined;
  });

  /** `prompts` gets the session folder, so that requests name files inside it. */
  async function start(
    prompts: (dir: string) => ScriptStep[][],
    telemetry: SettingsInput['telemetry'],
  ) {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-otel-')));
    session = await startScriptedSession(
      { prompts: prompts(folder) },
      { folder, settings: { rules: RULES, telemetry } },
    );
    return session;
  }

  it('sends one record per request, vote and decision with every attribute, over OTLP/HTTP protobuf; metrics too', async () => {
    receiver = await startOtlpReceiver();
    const s = await start(
      (dir) => [
        [run('git status'), run('rm -rf build'), edit(join(dir, 'a.txt'), 'DIFF-CONTENT-7f3a')],
      ],
      otlp(receiver),
    );
    const { gh, sessionId } = s;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const asked = await gh.nextApproval();
    await gh.api.call('vote', { requestId: asked.requestId, optionId: 'stop' });
    await turn;
    expect(s.replies().map((r) => r.optionId)).toEqual(['go', 'stop', 'stop']);

    const decisions = await receiver.waitForLogs(3, (l) => l.eventName === 'gatehouse.decision');
    const history = (await gh.core.store.history({ limit: 10 })).items.reverse();
    expect(decisions.map((d) => d.attributes['gatehouse.request.id'])).toEqual(
      history.map((h) => h.requestId),
    );
    for (const d of decisions) {
      expect(d.contentType).toBe('application/x-protobuf');
      expect(d.resource['service.name']).toBe('gatehouse');
      expect(d.attributes).toMatchObject({
        'gatehouse.agent.id': 's',
        'gatehouse.session.id': sessionId,
        'gatehouse.audit.kind': 'decision',
        'gatehouse.warning.codes': expect.any(Array),
        'gatehouse.latency_ms': expect.any(Number),
      });
      const seq = d.attributes['gatehouse.audit.seq'] as number;
      expect(d.attributes['gatehouse.audit.hash']).toBe(chainHash(gh.home, seq));
    }
    expect(decisions.map((d) => d.attributes)).toEqual([
      expect.objectContaining({
        'gatehouse.tool.kind': 'execute',
        'gatehouse.command': 'git status',
        'gatehouse.decision': 'allow',
        'gatehouse.decider.type': 'rule',
        'gatehouse.decider.ref': 'git-ok',
      }),
      expect.objectContaining({
        'gatehouse.command': 'rm -rf build',
        'gatehouse.decision': 'deny',
        'gatehouse.decider.type': 'rule',
        'gatehouse.decider.ref': 'no-rm',
      }),
      expect.objectContaining({
        'gatehouse.tool.kind': 'edit',
        'gatehouse.paths': [join(folder!, 'a.txt')],
        'gatehouse.decision': 'deny',
        'gatehouse.decider.type': 'person',
        'gatehouse.decider.ref': expect.any(String),
        'gatehouse.surface': 'api',
      }),
    ]);
    expect(decisions.map((d) => d.severityText)).toEqual(['INFO', 'WARN', 'WARN']);

    const requests = await receiver.waitForLogs(3, (l) => l.eventName === 'gatehouse.request');
    expect(requests.map((r) => r.attributes['gatehouse.request.id'])).toEqual(
      history.map((h) => h.requestId),
    );
    const [vote] = await receiver.waitForLogs(1, (l) => l.eventName === 'gatehouse.vote');
    expect(vote!.attributes).toMatchObject({
      'gatehouse.request.id': asked.requestId,
      'gatehouse.vote.option_id': 'stop',
      'gatehouse.vote.outcome': 'counted',
      'gatehouse.surface': 'api',
      'gatehouse.vote.identity_proven': true,
    });
    expectNoneTwice(receiver.logs);
    // Diff contents stay home unless logPrompts asks for them.
    expect(JSON.stringify(receiver.logs)).not.toContain('DIFF-CONTENT-7f3a');

    await vi.waitFor(
      () => {
        const body = JSON.stringify(receiver!.metrics.at(-1) ?? {});
        for (const name of [
          'gatehouse.requests',
          'gatehouse.decisions',
          'gatehouse.pending',
          'gatehouse.decision.latency',
        ]) {
          expect(body).toContain(`"name":"${name}"`);
        }
        expect(decisionCount(receiver!.metrics.at(-1))).toBe(3);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('over gRPC: the records and the metrics, with the headers as call metadata', async () => {
    grpc = await startOtlpGrpcReceiver();
    const s = await start(() => [[run('git status'), run('rm -rf build')]], {
      otlp: {
        endpoint: grpc.url,
        protocol: 'grpc',
        headers: { 'x-tenant': 'team-7' },
        exportDelayMs: 20,
        retryDelayMs: 100,
        metricsIntervalMs: 200,
      },
    });
    await s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });

    const decisions = await grpc.waitForLogs(2, (l) => l.eventName === 'gatehouse.decision');
    expect(decisions.map((d) => d.attributes)).toEqual([
      expect.objectContaining({ 'gatehouse.decision': 'allow', 'gatehouse.decider.ref': 'git-ok' }),
      expect.objectContaining({ 'gatehouse.decision': 'deny', 'gatehouse.decider.ref': 'no-rm' }),
    ]);
    expectNoneTwice(grpc.logs);
    await vi.waitFor(() => expect(decisionCount(grpc!.metrics.at(-1))).toBe(2), {
      timeout: 10_000,
      interval: 100,
    });
    expect(grpc.metadata.length).toBeGreaterThan(0);
    for (const m of grpc.metadata) expect(m['x-tenant']).toBe('team-7');
  });

  it('a collector down for a while gets every decision of the outage once it is back, none twice', async () => {
    receiver = await startOtlpReceiver();
    const first = [run('git status')];
    const outage = [run('git status'), run('rm -rf a'), run('rm -rf b'), run('git status')];
    const s = await start(() => [first, outage], otlp(receiver, { protocol: 'http/json' }));
    const { gh, sessionId } = s;
    await gh.api.call('prompt', { sessionId, text: 'one' });
    const [before] = await receiver.waitForLogs(1, (l) => l.eventName === 'gatehouse.decision');
    await vi.waitFor(() =>
      expect(exportCursor(gh.home)).toBeGreaterThanOrEqual(
        before!.attributes['gatehouse.audit.seq'] as number,
      ),
    );

    await receiver.down();
    await gh.api.call('prompt', { sessionId, text: 'two' });
    // Decided and answered while the collector is down.
    expect(s.replies().map((r) => r.optionId)).toEqual(['go', 'go', 'stop', 'stop', 'go']);
    const audited = (await gh.core.store.history({ limit: 10 })).items
      .map((i) => i.requestId)
      .reverse();
    expect(audited).toHaveLength(5);
    // The outage lasts several retry delays, each a failed export of the same batch.
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    expect(decisionsIn(receiver.logs)).toHaveLength(1);

    await receiver.up();
    const decisions = await receiver.waitForLogs(5, (l) => l.eventName === 'gatehouse.decision');
    expect(decisions.map((d) => d.attributes['gatehouse.request.id'])).toEqual(audited);
    expect(decisions[0]!.contentType).toBe('application/json');
    await receiver.waitForLogs(5, (l) => l.eventName === 'gatehouse.request');
    expectNoneTwice(receiver.logs);
  });

  it('with logPrompts the diff contents are sent with the request', async () => {
    receiver = await startOtlpReceiver();
    const { gh, sessionId } = await start(
      (dir) => {
        // The diff shown and exported is the file on disk before and the agent's text after.
        writeFileSync(join(dir, 'b.txt'), 'old line');
        return [[edit(join(dir, 'b.txt'), 'DIFF-CONTENT-91c2')]];
      },
      otlp(receiver, { logPrompts: true }),
    );
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    await gh.api.call('vote', { requestId: (await gh.nextApproval()).requestId, optionId: 'stop' });
    await turn;
    const [request] = await receiver.waitForLogs(1, (l) => l.eventName === 'gatehouse.request');
    const diffs = JSON.parse(request!.attributes['gatehouse.diffs'] as string) as unknown[];
    expect(diffs).toEqual([
      { path: join(folder!, 'b.txt'), oldText: 'old line', newText: 'DIFF-CONTENT-91c2' },
    ]);
  });

  it("a hostile agent's request cannot forge attributes or grow a record past the limit", async () => {
    receiver = await startOtlpReceiver();
    const forged = `git status\ngatehouse.decision=allow ${'x'.repeat(100_000)}`;
    const { gh, sessionId } = await start(
      () => [[run('rm -rf / # "gatehouse.decider.type":"rule"', forged)]],
      otlp(receiver),
    );
    await gh.api.call('prompt', { sessionId, text: 'go' });
    const [decision] = await receiver.waitForLogs(1, (l) => l.eventName === 'gatehouse.decision');
    expect(decision!.attributes).toMatchObject({
      'gatehouse.decision': 'deny',
      'gatehouse.decider.type': 'rule',
      'gatehouse.decider.ref': 'no-rm',
      'gatehouse.command': 'rm -rf / # "gatehouse.decider.type":"rule"',
    });
    const title = decision!.attributes['gatehouse.tool.title'] as string;
    expect(title.length).toBeLessThanOrEqual(ATTRIBUTE_VALUE_LIMIT);
    expect(Object.keys(decision!.attributes).every((k) => k.startsWith('gatehouse.'))).toBe(true);
  });
});

interface MetricsBody {
  resourceMetrics?: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        sum?: { dataPoints?: { asInt?: string | number; asDouble?: number }[] };
      }[];
    }[];
  }[];
}

function decisionCount(body: unknown): number {
  let total = 0;
  for (const rm of (body as MetricsBody | undefined)?.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        if (m.name !== 'gatehouse.decisions') continue;
        for (const p of m.sum?.dataPoints ?? []) total += Number(p.asInt ?? p.asDouble ?? 0);
      }
    }
  }
  return total;
}
