// What the agent sandbox costs: agent start-up (spawn, initialize, session/new of the scripted
// agent) and one approval round trip (prompt → permission request → vote → the agent's answer →
// turn end), each with the sandbox (workspace-write) and without (off), alternated in the same run.
// Figures are ratios to the unsandboxed run.
//   npx tsx bench/sandbox.ts            BENCH_SANDBOX_RUNS=20
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findBwrap } from '../src/main/core/sandbox/wrap';
import type { AgentConfig } from '../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../test/support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../test/support/gatehouse';
import { quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 20);
const ASK: ScriptStep = {
  type: 'requestPermission',
  toolCall: { toolCallId: 'bench', title: 'Run the tests', kind: 'execute' },
  options: [
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ],
};

/** Unsandboxed first: the others are reported as ratios to it. */
const VARIANTS = [
  { id: 'off', label: 'unsandboxed', settings: { sandbox: 'off' } },
  { id: 'boxed', label: 'sandboxed', settings: { sandbox: 'workspace-write', network: 'none' } },
  // An allowed host: the in-sandbox relay and the outside proxy start with the agent.
  {
    id: 'boxed-net',
    label: 'sandboxedWithProxy',
    settings: { sandbox: 'workspace-write', network: { allow: ['api.example.com'] } },
  },
] as const satisfies { id: string; label: string; settings: Partial<AgentConfig> }[];

export async function benchSandbox(report: Report): Promise<void> {
  try {
    findBwrap();
  } catch (error) {
    report('sandbox: skipped', { reason: (error as Error).message });
    return;
  }
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bench-sandbox-')));
  const launch = scriptedAgentLaunch({ prompts: Array.from({ length: RUNS + 1 }, () => [ASK]) });
  const agents = Object.fromEntries(
    VARIANTS.map((v) => [
      v.id,
      {
        command: launch.command,
        args: launch.args,
        env: launch.env as Record<string, string>,
        ...v.settings,
      },
    ]),
  );
  const gh = await startGatehouse({ agents });
  // Every request is answered at once, as a person with the dialog open would be, only faster.
  gh.core.bus.subscribe((event) => {
    if (event.type === 'permission_requested')
      void gh.api.call('vote', { requestId: event.approval.requestId, optionId: 'yes' });
  });
  try {
    const startMs = new Map<string, number[]>(VARIANTS.map((v) => [v.id, []]));
    const roundTripMs = new Map<string, number[]>(VARIANTS.map((v) => [v.id, []]));
    const sessions = new Map<string, string>();
    // One warm-up of each, not counted: the first start reads every module from disk.
    for (const v of VARIANTS) await startOnce(gh, v.id, folder);
    for (let i = 0; i < RUNS; i++) {
      for (const v of VARIANTS) {
        const t = performance.now();
        const sessionId = await startOnce(gh, v.id, folder, i === RUNS - 1);
        startMs.get(v.id)!.push(performance.now() - t);
        if (sessionId) sessions.set(v.id, sessionId);
      }
    }
    for (const v of VARIANTS) await prompt(gh, sessions.get(v.id)!); // warm-up
    for (let i = 0; i < RUNS; i++) {
      for (const v of VARIANTS) {
        const t = performance.now();
        await prompt(gh, sessions.get(v.id)!);
        roundTripMs.get(v.id)!.push(performance.now() - t);
      }
    }
    const figures = (samples: Map<string, number[]>, digits: number) => {
      const p50 = VARIANTS.map((v) => quantiles(samples.get(v.id)!).p50);
      const out: Record<string, number> = {};
      VARIANTS.forEach((v, i) => {
        out[`${v.label}Ms`] = round(p50[i]!, digits);
        if (i > 0) out[`${v.label}Ratio`] = round(p50[i]! / p50[0]!, 2);
      });
      return out;
    };
    report(
      `sandbox: agent start-up (spawn + initialize + session/new), p50 of ${RUNS}`,
      figures(startMs, 1),
    );
    report(`sandbox: one approval round trip, p50 of ${RUNS}`, figures(roundTripMs, 2));
  } finally {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Opens a session; closes it again unless `keep`. */
async function startOnce(
  gh: TestGatehouse,
  agentId: string,
  folder: string,
  keep = false,
): Promise<string | null> {
  const { sessionId } = await gh.api.call('createSession', { agentId, cwd: folder });
  if (keep) return sessionId;
  await gh.api.call('closeSession', { sessionId });
  return null;
}

async function prompt(gh: TestGatehouse, sessionId: string): Promise<void> {
  const { stopReason } = await gh.api.call('prompt', { sessionId, text: 'go' });
  if (stopReason !== 'end_turn') throw new Error(`turn ended ${stopReason}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printReport } = await import('./report');
  await benchSandbox(printReport);
}
