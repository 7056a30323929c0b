import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { isInside } from '../fs/containment';
import { existingRealPaths, hiddenPaths } from './hidden-paths';
import { bwrapArgs, type MountPlan } from './bwrap-args';
import { bridgeTooDeep, startBridge, type NetworkViolation } from './network-bridge';
import { isLoopbackHost, type HostRule, type SandboxProfile } from './profile';
import { npmView } from './npm-view';
import { createPrivateTmp, seenUnderTmp } from './private-tmp';
import { planProtection, type ProtectedLabel, type ProtectionOptions } from './protection';
import { relayLaunch, type RelaySpec } from './relay';
import { activatedLaunch, socketActivator } from './socket-activation';
import { guardState } from './state-guard';
import { askedOnce, runHere, ToolFailedError, type ToolRunner } from './tool-runner';
import {
  dropSocketVariables,
  nestedSandboxArgs,
  planUnixSockets,
  SECCOMP_FD,
  UnixSocketPlanError,
  withFilterOpen,
  type UnixSocketPlan,
} from './unix-sockets';
import { launchFolderPrefix } from './launch-folders';
import { removeTree } from '../fs/remove-tree';

export interface WrapOptions {
  /** Called for each connection the network bridge refuses. */
  onViolation?: (violation: NetworkViolation) => void;
  /** Node that runs the in-sandbox relay (allow-list network only). Default: this process's. */
  nodePath?: string;
  /** Default: `bwrap` on PATH. */
  bwrapPath?: string;
  /** Runs bubblewrap's own checks (tool-runner.ts). Default: on this thread. */
  runTool?: ToolRunner;
  /**
   * The socket activator that binds the allow-list network's ports (socket-activation.ts).
   * Default: the one on PATH, if it passed its check; null: the relay binds them at once.
   */
  activatorPath?: string | null;
  /** The agent's working directory when it is not the session folder. */
  cwd?: string;
  /** Files that run later: the list, and where a protected path moved into quarantine is told. */
  protection?: ProtectionOptions;
  /** Files Gatehouse wrote for this launch in its data folder, bound read-only into this sandbox. */
  launchFiles?: readonly { source: string; target: string }[];
}

export interface WrappedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /**
   * Stops the network bridge, removes its sockets and the sandbox's own temp folder. Call after the
   * process exited. Idempotent.
   */
  cleanup(): Promise<void>;
  /** The protected entry a path falls under (a refusal names what runs it), or null. */
  protectedBy(path: string): ProtectedLabel | null;
}

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

// Sockets of the user's session (D-Bus can start processes outside the sandbox, an ssh-agent signs
// with the user's keys): their variables are dropped (unix-sockets.ts) and their folders hidden.
const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'ALL_PROXY',
  'all_proxy',
];
const FIRST_PROXY_PORT = 3128;

/**
 * The command line that runs `command args` inside the profile's sandbox (bubblewrap, Linux).
 * Spawn the result as the agent itself (same stdio, detached); call cleanup() after it exits.
 */
export async function wrapCommand(
  profile: SandboxProfile,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: WrapOptions = {},
): Promise<WrappedCommand> {
  const bwrap = options.bwrapPath ?? findBwrap();
  // Before anything is made for this launch: a check that cannot be made fails it.
  const disableUserns = await canDisableUserns(bwrap, options.runTool ?? runHere);
  const innerEnv: NodeJS.ProcessEnv = { ...env };
  dropSocketVariables(innerEnv, profile.allowUnixSockets);
  const runDir = join(profile.gatehouseHome, 'run');
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const sockets = await unixSocketPlan(profile, runDir);
  const hidden = await hiddenPaths(profile, env, sockets.hidden);

  const guard = await guardState(profile.writable, profile.protectedState);
  const tmp = await createPrivateTmp(runDir);
  // Inside, every temp folder is the session's own, and the variables say so.
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) innerEnv[name] = '/tmp';
  const tmpDirs = await existingRealPaths(profile.tmpDirs);
  const cwd = options.cwd ?? profile.projectDir;
  const prepared = await (async () => {
    const npm = await npmView(
      env['npm_config_cache'] ?? join(profile.home, '.npm'),
      tmp.path,
      env['npm_config_registry'],
    );
    const writable = (await writableDirs(profile)).filter(
      (path) => !guard.lockedDirs.includes(path),
    );
    const protectedRoots = await existingRealPaths(profile.protectedRoots);
    const protection = await planProtection(profile, protectedRoots, writable, options.protection);
    return { npm, writable, protection };
  })().catch(async (error: unknown) => {
    await tmp.remove();
    throw error;
  });
  const { npm, writable, protection } = prepared;
  Object.assign(innerEnv, npm.env);
  const plan: MountPlan = {
    privateTmp: { source: tmp.path, targets: tmpDirs },
    afterTmp: seenUnderTmp(tmpDirs, [profile.home, cwd, ...[command, args[0]].map(folderOf)])
      .filter((path) => existsSync(path))
      .map((path) => ({ source: path, target: path }))
      .concat(npm.binds),
    writable,
    readOnly: profile.mode === 'read-only' ? await existingRealPaths([profile.projectDir]) : [],
    protectedAnchors: protection.mounts.anchors,
    protectedReadOnly: protection.mounts.readOnly,
    protectedState: guard.readOnly.filter(
      (path) => !guard.lockedDirs.some((dir) => isInside(path, dir)),
    ),
    hiddenDirs: hidden.dirs,
    hiddenFiles: hidden.files,
    unreadableFile: unreadableFileIn(runDir),
    bridgeDir: null,
    launchFiles: [...(options.launchFiles ?? [])],
    shareNetwork: profile.network.kind === 'all',
    bindLowPorts: false,
    disableUserns,
    cwd,
    unixSockets: sockets.shown,
  };
  const protectedBy = protection.label;
  if (profile.network.kind !== 'allow') {
    if (sockets.filterFile) plan.seccompFd = SECCOMP_FD;
    const watch = protection.watch();
    return {
      ...filtered(sockets, bwrap, bwrapArgs(plan, command, args)),
      env: innerEnv,
      cleanup: async () => {
        watch.close();
        await tmp.remove();
      },
      protectedBy,
    };
  }

  const loopback = profile.network.hosts.filter((rule) => isLoopbackHost(rule.host));
  const remote = profile.network.hosts.filter((rule) => !isLoopbackHost(rule.host));
  const bridgeDir = mkdtempSync(launchFolderPrefix(runDir, 'net'));
  const tooDeep = bridgeTooDeep(bridgeDir);
  if (tooDeep) {
    rmSync(bridgeDir, { recursive: true, force: true });
    await tmp.remove();
    throw new SandboxUnavailableError(tooDeep);
  }
  const bridge = await startBridge(
    bridgeDir,
    loopback,
    remote,
    options.onViolation ?? (() => {}),
  ).catch(async (error: unknown) => {
    rmSync(bridgeDir, { recursive: true, force: true });
    await tmp.remove();
    throw error;
  });
  const watch = protection.watch();
  let cleaned = false;
  const cleanup = async (): Promise<void> => {
    if (cleaned) return;
    cleaned = true;
    watch.close();
    await bridge.close();
    // The agent could write in both.
    await Promise.all([removeTree(bridgeDir), tmp.remove()]);
  };
  const spec: RelaySpec = { forwards: [...bridge.forwards], setEnv: {}, unsetEnv: [] };
  if (bridge.proxySocket) {
    const port = proxyPortAvoiding(loopback);
    spec.forwards.push({ host: '127.0.0.1', port, socket: bridge.proxySocket });
    const proxyUrl = `http://127.0.0.1:${port}`;
    for (const name of PROXY_VARIABLES) spec.setEnv[name] = proxyUrl;
    // Node's own http and fetch read the proxy variables only with this set.
    spec.setEnv['NODE_USE_ENV_PROXY'] = '1';
  }
  for (const name of PROXY_VARIABLES) delete innerEnv[name];
  // Loopback destinations are reached directly through the relay, never through the proxy.
  const direct = loopback.map((rule) => rule.host.replace(/^\[|\]$/g, ''));
  innerEnv['NO_PROXY'] = innerEnv['no_proxy'] = [
    ...new Set(['127.0.0.1', 'localhost', ...direct]),
  ].join(',');
  const nodePath = options.nodePath ?? process.execPath;
  if (process.versions['electron'] && !options.nodePath) {
    innerEnv['ELECTRON_RUN_AS_NODE'] = '1';
    if (env['ELECTRON_RUN_AS_NODE'] === undefined) spec.unsetEnv.push('ELECTRON_RUN_AS_NODE');
  }
  plan.bridgeDir = bridgeDir;
  plan.bindLowPorts = spec.forwards.some((forward) => forward.port < 1024);
  // bwrap's --disable-userns runs the command in a second user namespace, which holds no capability
  // over the network namespace; mounts stay locked against a nested namespace either way.
  if (plan.bindLowPorts) plan.disableUserns = false;
  let nested: string[] | null = null;
  if (sockets.filterFile) {
    // The relay reaches the bridge over Unix sockets: the filter holds for the agent only, in a
    // nested bwrap that needs user namespaces from the outer one.
    nested = nestedSandboxArgs(bwrap, plan.disableUserns);
    plan.disableUserns = false;
    plan.nestingCaps = process.getuid?.() === 0;
  }
  const activator =
    options.activatorPath === undefined ? await socketActivator(bwrap) : options.activatorPath;
  const first =
    (activator && activatedLaunch(activator, nodePath, spec, nested, command, args)) ||
    relayLaunch(nodePath, spec, nested, command, args);
  return {
    ...filtered(sockets, bwrap, bwrapArgs(plan, first.command, first.args)),
    env: innerEnv,
    cleanup,
    protectedBy,
  };
}

/** The Unix-socket plan, or the reason the sandbox cannot start. */
async function unixSocketPlan(profile: SandboxProfile, runDir: string): Promise<UnixSocketPlan> {
  try {
    return await planUnixSockets(profile.allowUnixSockets, runDir, profile.gatehouseHome);
  } catch (error) {
    if (error instanceof UnixSocketPlanError) throw new SandboxUnavailableError(error.message);
    throw error;
  }
}

/** bwrap's command line, started with the filter open when there is one. */
function filtered(
  sockets: UnixSocketPlan,
  bwrap: string,
  args: string[],
): { command: string; args: string[] } {
  return sockets.filterFile
    ? withFilterOpen(sockets.filterFile, bwrap, args)
    : { command: bwrap, args };
}

function folderOf(path: string | undefined): string | undefined {
  return path && isAbsolute(path) ? dirname(path) : undefined;
}

/** The bwrap executable on PATH, or an error that names the package to install. */
export function findBwrap(): string {
  if (process.platform !== 'linux') {
    throw new SandboxUnavailableError(
      `the agent sandbox needs Linux and bubblewrap (this is ${process.platform})`,
    );
  }
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, 'bwrap');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new SandboxUnavailableError(
    'bwrap not found: install the bubblewrap package (e.g. apt install bubblewrap)',
  );
}

/**
 * Whether this bubblewrap has `--disable-userns` (0.8 added it), asked once per binary. A help
 * that ran and failed is "no"; one that never ran fails the start and is asked again at the next,
 * so a lost launcher never leaves every later sandbox without the option.
 */
export const canDisableUserns = askedOnce(
  (bwrap: string, run: ToolRunner = runHere): Promise<boolean> =>
    run(bwrap, ['--help']).then(
      (help) => help.includes('--disable-userns'),
      (error: unknown) => {
        if (error instanceof ToolFailedError && error.ran) return false;
        throw error;
      },
    ),
);

/** Writable folders that exist; the agent's own state folders under HOME are created first. */
async function writableDirs(profile: SandboxProfile): Promise<string[]> {
  const present: string[] = [];
  for (const path of profile.writable) {
    if (!existsSync(path) && path !== profile.projectDir) {
      try {
        mkdirSync(path, { recursive: true });
      } catch {
        continue;
      }
    }
    present.push(path);
  }
  return existingRealPaths(present);
}

/** An empty file with no permissions, shared by every sandbox of this Gatehouse. */
export function unreadableFileIn(runDir: string): string {
  const path = join(runDir, 'unreadable');
  try {
    writeFileSync(path, '', { mode: 0, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Made by an earlier sandbox: a file of mode 0 refuses to be opened again by its owner (root
    // alone passes), so it is emptied only when an older copy holds something.
    if (statSync(path).size > 0) {
      chmodSync(path, 0o600);
      truncateSync(path);
    }
  }
  // An older copy may have other permissions.
  chmodSync(path, 0);
  return path;
}

function proxyPortAvoiding(loopback: readonly HostRule[]): number {
  let port = FIRST_PROXY_PORT;
  while (loopback.some((rule) => rule.port === port)) port += 1;
  return port;
}
