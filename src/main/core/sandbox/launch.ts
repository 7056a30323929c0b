// How an agent is started: its allow-listed environment, then the sandbox its settings ask for.
import { mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { SessionSandbox } from '../../../shared/domain';
import type { LaunchableAgent } from '../../../shared/settings';
import { agentEnvironment } from './agent-env';
import { isInside } from '../fs/containment';
import type { NetworkViolation } from './network-bridge';
import { knownProgramFor } from './known-agents';
import { launcherCall } from './launcher-command';
import { fetchLauncher, type FetchedLauncher } from './launcher-fetch';
import { writeLaunchFile, type WrittenLaunchFile } from './launch-file';
import { resolveSandboxProfile, SECRETS_IN_HOME, type SandboxProfile } from './profile';
import type { ProtectedLabel, ProtectionOptions } from './protection';
import { openShellStderrTap } from './shell-stderr';
import { askedOnce, runHere, ToolFailedError, type ToolRunner } from './tool-runner';
import { findBwrap, SandboxUnavailableError, wrapCommand } from './wrap';

/** A command line ready to spawn, and what the person is told about its sandbox. */
export interface AgentLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  sandbox: SessionSandbox;
  /**
   * Whether the agent needs the core's lifeline to die with it (agents/lifeline.ts): bubblewrap's
   * `--die-with-parent` and pid namespace do that job inside the sandbox.
   */
  lifeline: boolean;
  /** Where its record is kept while it runs, and whose it is (agents/leftover-agents.ts). */
  gatehouseHome: string;
  agentId: string;
  /** Stops what the sandbox runs outside the agent (its network bridge). After exit; idempotent. */
  cleanup(): Promise<void>;
  /** The protected entry a refused path falls under; null for others, or without a sandbox. */
  protectedBy(path: string): ProtectedLabel | null;
  /** The sandbox it runs in (null: none), kept so a command can be previewed in the same view. */
  profile: SandboxProfile | null;
}

export interface LaunchInput {
  agentId: string;
  config: LaunchableAgent;
  sessionDir: string;
  /** The session's other folders, as the person gave them (checked): roots like `sessionDir`. */
  additionalDirs?: readonly string[];
  gatehouseHome: string;
  onViolation: (violation: NetworkViolation) => void;
  /** Files that run later: the list in force, and where a move into quarantine is told. */
  protection?: ProtectionOptions;
  /**
   * What shells inside the sandbox write to stderr (shell-stderr.ts), for the violation reporter.
   * Absent: not read.
   */
  onShellStderr?: (text: string) => void;
  /** Runs the short programs a launch needs (bubblewrap's checks, the tap's mkfifo); absent: here. */
  runTool?: ToolRunner;
  /** A launcher's package being fetched outside the sandbox, then fetched and pinned. */
  onLauncherFetch?: (progress: {
    package: string;
    state: 'fetching' | 'fetched';
    pinned?: string;
  }) => void;
}

/**
 * The agent's launch. When the sandbox cannot start, the agent runs without one only if its
 * settings say `allowUnsandboxed`; otherwise this throws SandboxUnavailableError. A known agent
 * whose own defaults let it act without asking (Gemini CLI) is started with a policy that makes it
 * ask, sandbox or not.
 */
export async function prepareAgentLaunch(input: LaunchInput): Promise<AgentLaunch> {
  const { launch, policy } = await prepareOnce(input);
  // The caller spawns at once: the spawn gets a turn of the event loop of its own.
  await ownTurn();
  // Right before the start: the file the agent will read is the one written (LaunchFileChangedError).
  try {
    policy?.verify();
  } catch (error) {
    await launch.cleanup();
    throw error;
  }
  return launch;
}

async function prepareOnce(
  declared: LaunchInput,
): Promise<{ launch: AgentLaunch; policy: WrittenLaunchFile | null }> {
  // Awaited only for a launcher: anything else is prepared in the same turn, as before.
  const fetching = fetchedPackage(declared);
  const fetched = fetching ? await fetching : null;
  const input = fetched
    ? { ...declared, config: { ...declared.config, command: fetched.command, args: fetched.args } }
    : declared;
  const { config } = input;
  const askPolicy = knownProgramFor(config.command, config.args)?.askPolicy;
  const runDir = join(input.gatehouseHome, 'run');
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const policy = askPolicy ? writeLaunchFile(askPolicy, runDir) : null;
  const folder = fetched ? [fetched.folder] : [];
  if (!policy) return { launch: await launchWith(input, config.args, folder, fetched), policy };
  try {
    const launch = await launchWith(
      input,
      [...config.args, ...policy.args],
      [policy.path, ...folder],
      fetched,
    );
    return {
      launch: {
        ...launch,
        cleanup: async () => {
          await launch.cleanup();
          policy.remove();
        },
      },
      policy,
    };
  } catch (error) {
    policy.remove();
    throw error;
  }
}

/**
 * Where the agent's command is a launcher (npx, uvx…) and a sandbox is asked for, its package is
 * fetched outside the sandbox first (launcher-fetch.ts). npm and uv run with the person's environment
 * and the agent's own npm and uv variables (its registry, offline), nothing else of the agent's.
 */
function fetchedPackage(input: LaunchInput): Promise<FetchedLauncher> | null {
  const { config } = input;
  if (config.sandbox === 'off') return null;
  const call = launcherCall(config.command, config.args);
  if (!call) return null;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toUpperCase().startsWith('GATEHOUSE_')) env[name] = value;
  }
  for (const [name, value] of Object.entries(config.env)) {
    if (/^(npm_config_|uv_)/i.test(name)) env[name] = value;
  }
  env['npm_config_update_notifier'] = 'false';
  const told = input.onLauncherFetch ?? (() => {});
  return fetchLauncher(call, input.gatehouseHome, env, () =>
    told({ package: call.spec, state: 'fetching' }),
  ).then((fetched) => {
    if (fetched.fetched) told({ package: call.spec, state: 'fetched', pinned: fetched.pinned });
    return fetched;
  });
}

/**
 * Spawning a process holds the thread for milliseconds (tens under load, more with a large heap to
 * fork): fifty sessions started at once must not add up to one long freeze of every window. Each
 * launch waits for the one before it, then for a turn of the event loop of its own.
 */
let lastTurn: Promise<void> = Promise.resolve();
function ownTurn(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  lastTurn = turn;
  return turn;
}

async function launchWith(
  input: LaunchInput,
  args: readonly string[],
  launchFiles: readonly string[],
  fetched: FetchedLauncher | null = null,
): Promise<AgentLaunch> {
  const { config, agentId } = input;
  const env = agentEnvironment(process.env, config, process.platform, input.gatehouseHome);
  const cwd = config.cwd ?? input.sessionDir;
  const unsandboxed = (reason: string): AgentLaunch => ({
    command: config.command,
    args: [...args],
    env,
    cwd,
    sandbox: {
      profile: 'off',
      writable: [],
      network: 'all',
      reason,
      ...(fetched ? { package: fetched.pinned } : {}),
    },
    lifeline: true,
    gatehouseHome: input.gatehouseHome,
    agentId,
    cleanup: () => Promise.resolve(),
    protectedBy: () => null,
    profile: null,
  });

  const home = env['HOME'] ?? homedir();
  // The agent's HOME may be set elsewhere; the user's own keys stay hidden all the same.
  const realHome = homedir();
  const denyRead = [
    ...config.denyRead,
    ...(resolve(realHome) === resolve(home)
      ? []
      : SECRETS_IN_HOME.map((dir) => join(realHome, dir))),
  ];
  const profile = resolveSandboxProfile({
    agentId,
    command: config.command,
    args: config.args,
    settings: { ...config, denyRead },
    home,
    sessionDir: input.sessionDir,
    additionalDirs: input.additionalDirs ?? [],
    gatehouseHome: input.gatehouseHome,
    tmpDir: tmpdir(),
    env,
  });
  if (!profile) return unsandboxed('sandbox is off in this agent’s settings');
  try {
    const bwrap = findBwrap();
    const runTool = input.runTool ?? runHere;
    await checkNamespaces(bwrap, runTool);
    const tap = input.onShellStderr
      ? await openShellStderrTap(join(input.gatehouseHome, 'run'), input.onShellStderr, runTool)
      : null;
    const wrapped = await wrapCommand(
      profile,
      config.command,
      args,
      // SHLVL: bash started by Node (its stdin a socket pair) at level 1 takes itself for a remote
      // shell, reads ~/.bashrc and skips BASH_ENV.
      tap ? { ...env, BASH_ENV: tap.bashEnv, SHLVL: env['SHLVL'] ?? '1' } : env,
      {
        bwrapPath: bwrap,
        runTool,
        onViolation: input.onViolation,
        cwd,
        ...(input.protection ? { protection: input.protection } : {}),
        launchFiles: [
          ...launchFiles.map((path) => ({ source: path, target: path })),
          ...(tap?.files ?? []),
        ],
      },
    ).catch(async (error: unknown) => {
      await tap?.close();
      throw error;
    });
    return {
      ...wrapped,
      cleanup: async () => {
        await wrapped.cleanup();
        await tap?.close();
      },
      cwd,
      sandbox: { ...summary(profile, home), ...(fetched ? { package: fetched.pinned } : {}) },
      lifeline: true,
      gatehouseHome: input.gatehouseHome,
      agentId,
      profile,
    };
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    if (config.allowUnsandboxed) return unsandboxed(`sandbox unavailable: ${error.message}`);
    throw new SandboxUnavailableError(
      `${error.message}. To run agent "${agentId}" without a sandbox, set "allowUnsandboxed": true ` +
        'in its settings.',
    );
  }
}

/** How the session's own temp folder is listed among the writable paths a person is shown. */
export const PRIVATE_TMP_SHOWN = '/tmp (this session’s own)';

/**
 * Whether bwrap can build a sandbox on this machine, checked once per binary: user namespaces may
 * be refused (an AppArmor policy, a container), and then every agent would die at start with a
 * cryptic message.
 */
const checkNamespaces = askedOnce(async (bwrap: string, run: ToolRunner): Promise<void> => {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/'];
  try {
    await run(bwrap, [...args, '--proc', '/proc', '--dev', '/dev', '--', 'true']);
  } catch (error) {
    // Only bubblewrap's own refusal says there is no sandbox here (which may start the agent
    // without one, where allowed); a check that never ran fails this start, and is made again.
    if (!(error instanceof ToolFailedError) || !error.ran)
      throw new Error(`bubblewrap could not be checked: ${(error as Error).message}`, {
        cause: error,
      });
    throw new SandboxUnavailableError(
      `bubblewrap cannot create a sandbox here: ${(error.stderr || error.message).trim().slice(0, 500)}`,
    );
  }
});

function summary(profile: SandboxProfile, home: string): SessionSandbox {
  const shown = (path: string): string => {
    if (path === profile.projectDir) return 'project';
    const rel = relative(home, path);
    return rel !== '' && isInside(path, home) ? `~/${rel}` : path;
  };
  const { network } = profile;
  return {
    profile: profile.mode,
    // The temp folder is writable too, and the session's own (sandbox/private-tmp.ts).
    writable: [...profile.writable.map(shown), PRIVATE_TMP_SHOWN],
    network:
      network.kind === 'allow'
        ? network.hosts.map((rule) => `${rule.host}:${rule.port}`).join(', ')
        : network.kind,
  };
}
