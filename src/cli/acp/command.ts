// `gatehouse acp`: what an editor launches instead of its agent. It starts the agent as Gatehouse
// starts any agent (environment, sandbox), relays ACP between the two unchanged, and puts every
// permission request the agent makes through the core that owns $GATEHOUSE_HOME.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentConfig, AgentIdKey } from '../../shared/settings';
import { setupSnippets } from '../../shared/setup-snippets';
import {
  loadSettings,
  managedAgent,
  managedSettingsPath,
  protectedEntries,
  readManagedPolicy,
  launchableAgent,
  loadRegistrySnapshot,
  launchFamily,
  unguardedByDoor,
  prepareAgentLaunch,
  resolveHome,
  CORE_NODE_FLAGS,
} from '../../main/core';
import { controlSocketPath } from '../../main/control/socket-path';
import { writesPerTick } from '../../main/control/tick-writes';
import { EXIT, type CliIo } from '../io';
import { startAgent } from './agent-child';
import { CoreLink } from './core-link';
import { LineSplitter } from './lines';
import { AcpRelay } from './relay';

export const ACP_HELP = `Usage: gatehouse acp --agent <id>
       gatehouse acp [--name <label>] -- <agent command> [args…]

Runs an ACP agent for an editor: point the editor's agent command at this instead of the agent.
Every message passes between editor and agent unchanged, except that each permission request the
agent makes is decided by the Gatehouse core running on $GATEHOUSE_HOME — its rules, modes and
grants, its dialog, notifications and tray, and the editor's own prompt, whichever answers first —
and a file write or terminal the agent asks of the editor passes only when a decision covers it.

Options:
  --agent <id>     an agent from Gatehouse's settings (command, environment, sandbox, policy)
  --name <label>   how an agent given after -- is named in Gatehouse (default: its program)
  -h, --help

The agent runs in the sandbox of its settings (given after --: the default sandbox), with the
folder the editor starts this command in as its project folder. With no core running one is
started in the background (setting proxy.autoStart); with auto-start off, every permission request
is refused and the reason written to stderr.`;

/** This gatehouse as an editor should start it: this Node and bin/gatehouse.mjs, by real path. */
export function thisGatehouse(entry = process.argv[1]): string[] {
  if (!entry || !/gatehouse\.mjs$/.test(entry)) return ['gatehouse'];
  try {
    return [process.execPath, realpathSync(entry)];
  } catch {
    return ['gatehouse'];
  }
}

/** The help, with the editor's entry for this install (Zed's settings.json). */
export function acpHelp(gatehouse: readonly string[] = thisGatehouse()): string {
  return `${ACP_HELP}\n\nIn Zed's settings.json, for this install (the agent "gemini" of Gatehouse's settings):\n${setupSnippets(gatehouse).editor}`;
}

export interface AcpOptions {
  agent?: string;
  name?: string;
  command: string[];
}

/** A program's name as an agent id: its base name, cut to what an id may hold. */
function adHocId(label: string): string {
  const id = basename(label)
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return AgentIdKey.safeParse(id).success ? id : 'agent';
}

export async function acp(options: AcpOptions, io: CliIo): Promise<number> {
  const home = resolveHome(io.env);
  const settings = loadSettings(home);
  let agent: { id: string; name: string; adHoc: boolean };
  let declared: AgentConfig;
  if (options.agent !== undefined) {
    const found = settings.agents[options.agent];
    if (!found) {
      io.err(`gatehouse acp: no agent "${options.agent}" in ${home}/settings.json`);
      return EXIT.usage;
    }
    declared = found;
    agent = { id: options.agent, name: found.name ?? options.agent, adHoc: false };
  } else {
    const [command, ...args] = options.command;
    const label = options.name ?? command!;
    declared = AgentConfig.parse({ command, args });
    agent = { id: adHocId(label), name: label.slice(0, 100), adHoc: true };
  }

  // The administrator's sandbox holds for an editor's agent as for the core's own.
  const managed = readManagedPolicy(managedSettingsPath(io.env));
  declared = managedAgent(declared, managed);
  const log = (line: string) => io.err(line);
  let launch;
  let unguarded: string | null;
  try {
    const config = launchableAgent(agent.id, declared, () => loadRegistrySnapshot(home));
    // An agent whose side door cannot be closed runs only where its settings opted in.
    unguarded = unguardedByDoor(agent.id, config, launchFamily(agent.id, config));
    launch = await prepareAgentLaunch({
      agentId: agent.id,
      config,
      sessionDir: process.cwd(),
      gatehouseHome: home,
      onViolation: (v) =>
        log(`gatehouse acp: the sandbox refused a connection to ${v.host}:${v.port} (${v.reason})`),
      // The editor may make such a file itself (workspace settings): the line says where it went.
      protection: {
        entries: protectedEntries(settings.protectedPaths, managed),
        onMove: (m) =>
          log(
            `gatehouse acp: ${m.path} appeared (${m.runs}); moved to ${m.movedTo ?? `nowhere: ${m.error}`}`,
          ),
      },
    });
  } catch (error) {
    io.err(`gatehouse acp: agent "${agent.id}" did not start: ${(error as Error).message}`);
    return EXIT.failed;
  }

  const link = new CoreLink({
    socketPath: controlSocketPath(home),
    agent,
    sandbox: launch.sandbox,
    unguarded,
    startCore: settings.proxy.autoStart ? () => startCoreInBackground(io.env) : undefined,
    log,
  });
  const child = startAgent(launch);
  const relay = new AcpRelay(link, {
    toAgent: child.child.stdin ? writesPerTick(child.child.stdin) : () => undefined,
    toEditor: writesPerTick(process.stdout),
    log,
  });
  child.child.stdin?.on('error', () => undefined);

  const fromAgent = new LineSplitter();
  child.child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of fromAgent.push(chunk)) relay.fromAgent(line);
  });
  const fromEditor = new LineSplitter();
  process.stdin.on('data', (chunk: Buffer) => {
    for (const line of fromEditor.push(chunk)) relay.fromEditor(line);
  });
  // The editor hung up: the agent goes too, with whatever it spawned.
  process.stdin.once('end', () => {
    child.child.stdin?.end();
    void child.stop();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void child.stop());
  }

  const exit = await child.exited;
  await child.stop();
  link.close();
  process.stdin.pause();
  // As a shell reports it: 128 + the signal's number for an agent ended by a signal.
  return exit.code ?? (exit.signal ? 128 + constants.signals[exit.signal] : EXIT.failed);
}

/**
 * A headless core of its own, detached from the editor and this proxy: it outlives both, and other
 * proxies share it. Its address is told by `gatehouse status`.
 */
function startCoreInBackground(env: Record<string, string | undefined>): void {
  const headless = fileURLToPath(new URL('./headless.js', import.meta.url));
  const core = spawn(process.execPath, [...CORE_NODE_FLAGS, headless], {
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: 'ignore',
  });
  core.on('error', () => undefined);
  core.unref();
}
