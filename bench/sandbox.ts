// What the agent sandbox costs: agent start-up (spawn, initialize, session/new of the scripted
// agent) and one approval round trip (prompt → permission request → vote → the agent's answer →
// turn end), each with the sandbox (workspace-write) and without (off), alternated in the same run.
// Figures are ratios to the unsandboxed run, and the sandbox's also to the same sandbox as it was
// before what an agent leaves behind was confined (protected files, private temp folders, closed
// Unix sockets, agent state): that commit is checked out beside this tree and its core runs in the
// same process, alternated with this one. Floors of the same run: the agent under a bare bubblewrap
// (namespaces, nothing mounted), and the agent with the proxy variables the allow-list network sets;
// each sandbox is also given as a ratio to the floor that holds what it cannot avoid.
//   npx tsx bench/sandbox.ts            BENCH_SANDBOX_RUNS=20
//   BENCH_SANDBOX_BASELINE=<commit>     the sandbox to compare with (default: SANDBOX_BEFORE)
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findBwrap } from '../src/main/core/sandbox/wrap';
import type { AgentConfig } from '../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../test/support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../test/support/gatehouse';
import { checkoutBaseline, type BaselineTree } from './baseline-tree';
import { quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 20);
/** The last commit with the sandbox as it was before it confined what an agent leaves behind. */
export const SANDBOX_BEFORE = 'ab0502c8d03608e343efef0664882dca9d3119fd';
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

/**
 * Floors of this run, unsandboxed as far as Gatehouse knows: the agent under a bare bubblewrap
 * (the namespaces alone: what any sandbox of this kind costs), and the agent told of a proxy as
 * the sandbox tells it (Node loads its proxy support at boot when NODE_USE_ENV_PROXY is set).
 */
const PROXY_ENV = { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: 'http://127.0.0.1:3128' };
const BARE_BWRAP = [
  '--die-with-parent',
  '--unshare-user',
  '--unshare-pid',
  '--unshare-net',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--',
];
const FLOORS = [
  { id: 'floor-ns', label: 'bareNamespaces', bwrap: true, env: {} },
  { id: 'floor-proxy-env', label: 'proxyVariables', bwrap: false, env: PROXY_ENV },
  { id: 'floor-ns-proxy-env', label: 'bareNamespacesProxyVariables', bwrap: true, env: PROXY_ENV },
] as const;

/** One measured start or round trip: which core runs which agent. */
interface Run {
  id: string;
  label: string;
  gh: TestGatehouse;
  /** The variant this one is compared with, besides the unsandboxed run. */
  before?: string;
}

type Loader = {
  startGatehouse: typeof startGatehouse;
  scriptedAgentLaunch: typeof scriptedAgentLaunch;
};

async function startCore(loader: Loader): Promise<TestGatehouse> {
  const launch = loader.scriptedAgentLaunch({
    prompts: Array.from({ length: RUNS + 1 }, () => [ASK]),
  });
  const env = launch.env as Record<string, string>;
  const agents = Object.fromEntries([
    ...VARIANTS.map((v) => [
      v.id,
      { command: launch.command, args: launch.args, env, ...v.settings },
    ]),
    ...FLOORS.map((f) => [
      f.id,
      {
        command: f.bwrap ? findBwrap() : launch.command,
        args: f.bwrap ? [...BARE_BWRAP, launch.command, ...launch.args] : launch.args,
        env: { ...env, ...f.env },
        sandbox: 'off',
      },
    ]),
  ]);
  const gh = await loader.startGatehouse({ agents });
  // Every request is answered at once, as a person with the dialog open would be, only faster.
  gh.core.bus.subscribe((event) => {
    if (event.type === 'permission_requested')
      void gh.api.call('vote', { requestId: event.approval.requestId, optionId: 'yes' });
  });
  return gh;
}

export async function benchSandbox(report: Report): Promise<void> {
  try {
    findBwrap();
  } catch (error) {
    report('sandbox: skipped', { reason: (error as Error).message });
    return;
  }
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bench-sandbox-')));
  const gh = await startCore({ startGatehouse, scriptedAgentLaunch });
  const runs: Run[] = [...VARIANTS, ...FLOORS].map((v) => ({ id: v.id, label: v.label, gh }));
  const baseline = checkoutBaseline(process.env.BENCH_SANDBOX_BASELINE ?? SANDBOX_BEFORE);
  let before: { tree: BaselineTree; gh: TestGatehouse } | null = null;
  if ('skipped' in baseline) report('sandbox: no baseline', { reason: baseline.skipped });
  else {
    try {
      const loader: Loader = {
        ...((await import(join(baseline.root, 'test/support/gatehouse.ts'))) as Loader),
        ...((await import(join(baseline.root, 'test/support/agents/scripted-agent.ts'))) as Loader),
      };
      before = { tree: baseline, gh: await startCore(loader) };
      for (const v of VARIANTS.filter((v) => v.id !== 'off')) {
        runs.push({ id: `${v.id}-before`, label: `${v.label}Before`, gh: before.gh });
        runs.find((run) => run.id === v.id)!.before = `${v.id}-before`;
      }
    } catch (error) {
      report('sandbox: no baseline', { reason: (error as Error).message.split('\n')[0]! });
      baseline.remove();
    }
  }
  try {
    const startMs = new Map<string, number[]>(runs.map((r) => [r.id, []]));
    const roundTripMs = new Map<string, number[]>(runs.map((r) => [r.id, []]));
    const sessions = new Map<string, string>();
    const agentOf = (run: Run) => run.id.replace(/-before$/, '');
    // One warm-up of each, not counted: the first start reads every module from disk.
    for (const run of runs) await startOnce(run.gh, agentOf(run), folder);
    for (let i = 0; i < RUNS; i++) {
      for (const run of runs) {
        const t = performance.now();
        const sessionId = await startOnce(run.gh, agentOf(run), folder, i === RUNS - 1);
        startMs.get(run.id)!.push(performance.now() - t);
        if (sessionId) sessions.set(run.id, sessionId);
      }
    }
    for (const run of runs) await prompt(run.gh, sessions.get(run.id)!); // warm-up
    for (let i = 0; i < RUNS; i++) {
      for (const run of runs) {
        const t = performance.now();
        await prompt(run.gh, sessions.get(run.id)!);
        roundTripMs.get(run.id)!.push(performance.now() - t);
      }
    }
    const figures = (samples: Map<string, number[]>, digits: number) => {
      const p50 = new Map(runs.map((r) => [r.id, quantiles(samples.get(r.id)!).p50]));
      const out: Record<string, number | string> = {};
      for (const run of runs) {
        const ms = p50.get(run.id)!;
        out[`${run.label}Ms`] = round(ms, digits);
        if (run.id !== 'off') out[`${run.label}Ratio`] = round(ms / p50.get('off')!, 2);
        if (run.before) out[`${run.label}VsBefore`] = round(ms / p50.get(run.before)!, 2);
      }
      // Each sandbox against the floor that holds what it cannot avoid.
      out['sandboxedVsBareNamespaces'] = round(p50.get('boxed')! / p50.get('floor-ns')!, 2);
      out['sandboxedWithProxyVsBareNamespacesProxyVariables'] = round(
        p50.get('boxed-net')! / p50.get('floor-ns-proxy-env')!,
        2,
      );
      if (before) out['before'] = before.tree.commit.slice(0, 12);
      out['load'] = round(loadavg()[0] ?? 0, 2);
      return out;
    };
    report(
      `sandbox: agent start-up (spawn + initialize + session/new), p50 of ${RUNS}`,
      figures(startMs, 1),
    );
    report(`sandbox: one approval round trip, p50 of ${RUNS}`, figures(roundTripMs, 2));
  } finally {
    await gh.close();
    if (before) {
      await before.gh.close();
      before.tree.remove();
    }
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
