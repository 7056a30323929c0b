// A command run once in a throwaway copy-on-write view of the session's sandbox, to see what it
// would change before anyone allows it. bubblewrap 0.8 has no overlay options, so util-linux's
// unshare makes a user, mount, network and PID namespace first: there a size-bounded tmpfs holds
// an overlay's upper folder for each writable root and for HOME (so a write outside the roots lands
// in the layer too, and is reported rather than made), and the session's own bwrap view is built on
// top — `/` read-only, its secrets hidden, a temp folder of its own, no Unix sockets, no network but
// a proxy that refuses every connection and names its host. Where namespaces or overlays are
// refused the run says "unavailable" and never falls back to running the command for real.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isInside } from '../fs/containment';
import { bwrapArgs, type MountPlan } from './bwrap-args';
import { existingRealPaths, hiddenPaths } from './hidden-paths';
import { runLayer, spawnHere, type LayerSpawner } from './layer-run';
import { bridgeTooDeep, startBridge, type NetworkViolation } from './network-bridge';
import { launchFolderPrefix, SCRATCH_KIND } from './launch-folders';
import { NPM_CACHE_INSIDE } from './npm-view';
import type { SandboxProfile } from './profile';
import { seenUnderTmp } from './private-tmp';
import { RELAY_SOURCE, type RelaySpec } from './relay';
import { listLayers, type LayerChange, type LayerPaths, type Listing } from './scratch-listing';
import { overlaySafe, scratchScript, tmpOf, upperOf } from './scratch-script';
import { scratchParents, sweepScratchFolders } from './scratch-sweep';
import {
  dropSocketVariables,
  nestedSandboxArgs,
  planUnixSockets,
  SECCOMP_FD,
} from './unix-sockets';
import { findBwrap, unreadableFileIn } from './wrap';

export type { LayerChange } from './scratch-listing';

export interface ScratchBounds {
  /** Largest file the command may write, in bytes. */
  fileBytes: number;
  /** Writable memory each of its processes may take (RLIMIT_DATA), in bytes. */
  memoryBytes: number;
  /** Everything it writes into the layer together (the tmpfs's size), in bytes. */
  diskBytes: number;
  /** Processes at once. */
  processes: number;
}

export const DEFAULT_SCRATCH_BOUNDS: ScratchBounds = {
  fileBytes: 256 * 1024 * 1024,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  diskBytes: 512 * 1024 * 1024,
  processes: 1024,
};

/** The command as it is in the layer, readable until the run's namespace ends. */
export interface LayerView {
  changes: readonly LayerChange[];
  /** Every change, also those past the ones listed, by kind. */
  totals: Listing['totals'];
  /** The host path through which `path`'s new content is read (never followed: open O_NOFOLLOW). */
  upperPath(change: LayerChange): string;
}

export interface ScratchRunInput<T = never> {
  /** The session's sandbox: its writable folders are the layer's roots. */
  profile: SandboxProfile;
  cwd: string;
  /** The exact command line, run by /bin/sh -c. */
  command: string;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  bounds?: Partial<ScratchBounds>;
  /** Aborted: the command is killed at once and nothing is listed. */
  signal?: AbortSignal;
  /** Changes listed one by one (all are counted). */
  keep?: number;
  /** Read what the layer holds before it is thrown away. */
  inspect?: (view: LayerView) => Promise<T>;
  /** What starts the layer's first process: the core's launcher; else this thread spawns it. */
  spawn?: LayerSpawner;
}

export interface ScratchResult<T> {
  state: 'finished' | 'timed_out' | 'aborted' | 'unavailable';
  /** Why the run could not happen, for "unavailable". */
  reason?: string;
  exitCode: number | null;
  /** The last of what it printed (stdout and stderr together). */
  output: string;
  changes: LayerChange[];
  /** Every change, also those not listed, by kind. */
  totals: Listing['totals'];
  /** The listing stopped at its bound. */
  cut: boolean;
  /** The layer's disk bound was reached (the tmpfs is full). */
  diskFull: boolean;
  /** Connections it tried, each refused. */
  refused: NetworkViolation[];
  inspected: T | null;
  durationMs: number;
}

const VISIT = 200_000;
const PROXY_PORT = 3128;

/** Runs `input.command` in a scratch layer of the session's sandbox and lists what it changed. */
export async function runInScratchLayer<T = never>(
  input: ScratchRunInput<T>,
): Promise<ScratchResult<T>> {
  const started = Date.now();
  const unavailable = (reason: string): ScratchResult<T> => ({
    ...EMPTY,
    state: 'unavailable',
    reason: reason.slice(0, 2000),
    durationMs: Date.now() - started,
  });
  if (process.platform !== 'linux') return unavailable(`a scratch layer needs Linux`);
  if (input.signal?.aborted) return { ...EMPTY, state: 'aborted', durationMs: 0 };
  let bwrap: string;
  let unshare: string;
  let prlimit: string;
  try {
    bwrap = findBwrap();
    unshare = onPath('unshare');
    prlimit = onPath('prlimit');
  } catch (error) {
    return unavailable((error as Error).message);
  }
  const { profile } = input;
  const bounds = { ...DEFAULT_SCRATCH_BOUNDS, ...input.bounds };
  const roots = outermost(await existingRealPaths(profile.writable));
  const homes = (await existingRealPaths([profile.home, homedir()])).filter(
    (home) => !roots.some((root) => isInside(home, root)),
  );
  // Parents first: a root inside HOME is covered after HOME.
  const layers = [...outermost(homes), ...roots].sort((a, b) => a.length - b.length);
  // An empty folder the tmpfs is mounted on, outside every layer (an overlay mounted over it would
  // hide it): HOME and the data folder are often layers, the temp folder seldom.
  const parent = [...scratchParents(), join(profile.gatehouseHome, 'run')].find(
    (dir) => !layers.some((layer) => isInside(dir, layer)),
  );
  if (!parent) return unavailable('no folder outside the layers to hold the scratch folders');
  const unsafe = [...layers, parent].find((path) => !overlaySafe(path));
  if (unsafe) return unavailable(`an overlay cannot name this folder: ${unsafe}`);

  const runDir = join(profile.gatehouseHome, 'run');
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  mkdirSync(parent, { recursive: true });
  await sweepScratchFolders(parent);
  const scratch = mkdtempSync(launchFolderPrefix(parent, SCRATCH_KIND));
  const control = mkdtempSync(launchFolderPrefix(runDir, 'preview'));
  const refused: NetworkViolation[] = [];
  let bridge: Awaited<ReturnType<typeof startBridge>> | null = null;
  try {
    const sockets = await planUnixSockets([], runDir, profile.gatehouseHome).catch(
      (error: Error) => error,
    );
    if (sockets instanceof Error) return unavailable(sockets.message);
    const tooDeep = bridgeTooDeep(control);
    if (tooDeep) return unavailable(tooDeep);
    bridge = await startBridge(control, [], [], (violation) => refused.push(violation), true);
    const env: NodeJS.ProcessEnv = { ...input.env };
    dropSocketVariables(env, []);
    const hidden = await hiddenPaths(profile, env, []);
    const tmpDirs = await existingRealPaths(profile.tmpDirs);
    const plan: MountPlan = {
      privateTmp: { source: tmpOf(scratch), targets: tmpDirs },
      afterTmp: seenUnderTmp(tmpDirs, [profile.home, input.cwd, folderOf(process.execPath)]).map(
        (path) => ({ source: path, target: path }),
      ),
      writable: layers,
      readOnly: [],
      protectedAnchors: [],
      protectedReadOnly: [],
      protectedState: [],
      hiddenDirs: hidden.dirs,
      hiddenFiles: hidden.files,
      unreadableFile: unreadableFileIn(runDir),
      bridgeDir: control,
      launchFiles: [],
      shareNetwork: false,
      bindLowPorts: false,
      disableUserns: false,
      cwd: input.cwd,
      // The command starts in a nested bwrap that holds the filter; mapping uid 0 (the
      // namespace's root) into it takes CAP_SETFCAP.
      nestingCaps: true,
    };
    const spec: RelaySpec = {
      forwards: [{ host: '127.0.0.1', port: PROXY_PORT, socket: bridge.proxySocket! }],
      setEnv: {},
      unsetEnv: [],
      nested: { argv: nestedSandboxArgs(bwrap, false), fd: SECCOMP_FD },
    };
    const proxy = `http://127.0.0.1:${PROXY_PORT}`;
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY'])
      spec.setEnv[name] = proxy;
    spec.setEnv['NODE_USE_ENV_PROXY'] = '1';
    Object.assign(env, { TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', NO_PROXY: '', no_proxy: '' });
    // The session's npm keeps its cache in its own temp folder, as in its sandbox.
    env['npm_config_cache'] = NPM_CACHE_INSIDE;
    if (process.versions['electron']) {
      env['ELECTRON_RUN_AS_NODE'] = '1';
      spec.unsetEnv.push('ELECTRON_RUN_AS_NODE');
    }
    const relay = ['-e', RELAY_SOURCE, JSON.stringify(spec), '/bin/sh', '-c', input.command];
    const script = scratchScript({
      scratch,
      layers,
      diskBytes: bounds.diskBytes,
      pidMax: Math.max(bounds.processes, 301),
      root: process.getuid?.() === 0,
      limits: [
        prlimit,
        `--fsize=${bounds.fileBytes}`,
        // Writable private memory, not address space: WebAssembly and V8 reserve far more address
        // space than they use (Node's fetch could not start under an address-space bound).
        `--data=${bounds.memoryBytes}`,
        `--cpu=${Math.ceil(input.timeoutMs / 1000) + 1}`,
        `--nproc=${bounds.processes}`,
        '--core=0',
        '--',
      ],
      argv: [bwrap, ...environmentArgs(env), ...bwrapArgs(plan, process.execPath, relay)],
      filterFile: sockets.filterFile!,
    });
    const scriptFile = join(control, 'layer.sh');
    writeFileSync(scriptFile, script, { mode: 0o600 });

    const layerPaths = (pid: number): LayerPaths[] =>
      layers.map((target, i) => ({
        target,
        upper: `/proc/${pid}/root${upperOf(scratch, i)}`,
        merged: `/proc/${pid}/root${target}`,
      }));
    const run = await runLayer(
      input.spawn ?? spawnHere,
      unshare,
      scriptFile,
      input,
      async (pid) => {
        const paths = layerPaths(pid);
        const listing = await listLayers(paths, input.keep ?? 200, VISIT);
        const free = await statfs(`/proc/${pid}/root${scratch}`).catch(() => null);
        const view: LayerView = {
          changes: listing.changes,
          totals: listing.totals,
          upperPath: (change) => {
            const i = layers.indexOf(change.layer);
            return join(paths[i]!.upper, change.path.slice(change.layer.length));
          },
        };
        const inspected = input.inspect ? await input.inspect(view) : null;
        // Less than a block left of the bound: the command was stopped by it.
        const diskFull = free !== null && free.bavail * free.bsize < 64 * 1024;
        return { listing, inspected, diskFull };
      },
    );
    const took = Date.now() - started;
    if (run.setupFailure !== null || run.spawnError)
      return unavailable(run.spawnError ?? `no scratch layer here: ${run.setupFailure}`);
    if (run.aborted) return { ...EMPTY, state: 'aborted', output: run.output, durationMs: took };
    if (run.readError !== undefined || !run.read)
      return unavailable(`the layer could not be read: ${run.readError ?? 'it ended first'}`);
    const { read } = run;
    return {
      state: run.timedOut ? 'timed_out' : 'finished',
      exitCode: run.timedOut ? null : run.exitCode,
      output: run.output,
      changes: read.listing.changes,
      totals: read.listing.totals,
      cut: read.listing.cut,
      diskFull: read.diskFull,
      refused,
      inspected: read.inspected,
      durationMs: took,
    };
  } finally {
    await bridge?.close();
    rmSync(control, { recursive: true, force: true });
    // The tmpfs was mounted only in the namespace: on the host this folder is empty.
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

const NO_TOTALS = { created: 0, modified: 0, deleted: 0 } as const;

const EMPTY: Omit<ScratchResult<never>, 'state' | 'durationMs'> = {
  exitCode: null,
  output: '',
  changes: [],
  totals: NO_TOTALS,
  cut: false,
  diskFull: false,
  refused: [],
  inspected: null,
};

/** Folders none of which is inside another. */
function outermost(paths: readonly string[]): string[] {
  return paths.filter((path) => !paths.some((other) => other !== path && isInside(path, other)));
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

/** A tool's absolute path, found on Gatehouse's own PATH (never on the command's). */
function onPath(tool: string): string {
  const dirs = (process.env['PATH'] ?? '/usr/bin:/bin').split(delimiter);
  const dir = dirs.find((candidate) => candidate && existsSync(join(candidate, tool)));
  if (!dir) throw new Error(`${tool} not found: install util-linux`);
  return join(dir, tool);
}

/** The command's environment, set by bwrap inside the sandbox only. */
function environmentArgs(env: NodeJS.ProcessEnv): string[] {
  const out = ['--clearenv'];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      out.push('--setenv', name, value);
  }
  return out;
}
