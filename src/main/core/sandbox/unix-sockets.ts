// Local (Unix) sockets inside the sandbox: closed by default, by the seccomp filter that refuses
// socket(AF_UNIX) (seccomp-filter.ts), for the agent and everything it starts. An agent whose
// settings name sockets in `allowUnixSockets` needs socket(AF_UNIX) at all, so it runs without the
// filter; every other socket this machine listens on is then hidden by a mount (the trade-off is
// written in docs/security.md).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../fs/containment';
import { unixSocketFilterBytes, unixSocketFilterSupported } from './seccomp-filter';

/** The descriptor bwrap reads the filter from (`--seccomp 9`); the agent's own are 0-3. */
export const SECCOMP_FD = 9;

/**
 * Variables that lead to a local socket or to a session's display, bus or terminal server; none
 * reaches the agent unless it names one of its allowed sockets. XDG_RUNTIME_DIR goes too: the
 * sandbox hides that folder, and a program told of it would only fail there.
 */
export const SOCKET_VARIABLES = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'XAUTHORITY',
  'WAYLAND_DISPLAY',
  'WAYLAND_SOCKET',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'DOCKER_HOST',
  'CONTAINER_HOST',
  'PULSE_SERVER',
  'PIPEWIRE_REMOTE',
  'NOTIFY_SOCKET',
  'SWAYSOCK',
  'I3SOCK',
  'KITTY_LISTEN_ON',
  'NVIM',
  'NVIM_LISTEN_ADDRESS',
  'VSCODE_IPC_HOOK_CLI',
  'VSCODE_GIT_IPC_HANDLE',
];

/** The socket path a variable's value names (`unix://`, `unix:path=`, or a bare path). */
function socketPathOf(value: string): string {
  return value.replace(/^unix:(\/\/|path=)?/, '').replace(/,.*$/, '');
}

/** Removes the socket variables from `env`, but for one that names an allowed socket. */
export function dropSocketVariables(env: NodeJS.ProcessEnv, allowed: readonly string[]): void {
  for (const name of SOCKET_VARIABLES) {
    const value = env[name];
    if (value !== undefined && !allowed.includes(socketPathOf(value))) delete env[name];
  }
}

/**
 * The filter's file in the run folder (which the sandbox hides), named by its content and
 * replaced whole, so that a launch never reads one half written.
 */
export function writeUnixSocketFilter(runDir: string): string {
  const bytes = unixSocketFilterBytes();
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const path = join(runDir, `unix-sockets-${hash}.bpf`);
  if (existsSync(path) && readFileSync(path).equals(bytes)) return path;
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, bytes, { mode: 0o400 });
  renameSync(partial, path);
  return path;
}

export { unixSocketFilterSupported };

/**
 * `command args` started with the filter open as descriptor 9, which bwrap's `--seccomp 9` (or
 * the relay's nested bwrap) reads and closes. A shell opens it: the agents' launcher spawns with
 * its pipes only, and this keeps it so.
 */
export function withFilterOpen(
  filterFile: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return {
    command: '/bin/sh',
    args: [
      '-c',
      `exec ${SECCOMP_FD}<"$1" || exit 126; shift; exec "$@"`,
      'sh',
      filterFile,
      command,
      ...args,
    ],
  };
}

/**
 * The bwrap the relay starts the agent in, inside the sandbox (allow-list network): it adds only
 * the filter and a user namespace of its own, so the relay, outside the filter, may still reach
 * the bridge's sockets. In that namespace the agent holds no capability over the relay's: it can
 * neither trace it nor open its descriptors. Ends with `--`; the agent's command follows.
 */
export function nestedSandboxArgs(bwrap: string, disableUserns: boolean): string[] {
  return [
    bwrap,
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    // Everything the outer sandbox mounted, as it is: read-only stays read-only (the flags are
    // locked from a nested namespace), hidden stays hidden.
    '--dev-bind',
    '/',
    '/',
    '--seccomp',
    String(SECCOMP_FD),
    '--',
  ];
}

/** At most this many sockets hidden one by one (each is a mount): past it the sandbox refuses. */
const MAX_HIDDEN_SOCKETS = 2048;

/**
 * The paths of the Unix sockets bound in Gatehouse's network namespace (Linux lists them in
 * /proc/net/unix, with the path each was bound at), real paths of those that still are sockets.
 * Abstract sockets have no path; they stay unreachable from a sandbox with a network namespace of
 * its own.
 */
export async function boundSocketPaths(listing = '/proc/net/unix'): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(listing, 'utf8');
  } catch {
    return [];
  }
  const named = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is the eighth field, when there.
    const path = line.trim().split(/\s+/).slice(7).join(' ');
    if (path.startsWith('/')) named.add(path);
  }
  const real = await Promise.all(
    [...named].map(async (path) => {
      try {
        const resolved = await realpath(path);
        return (await lstat(resolved)).isSocket() ? resolved : null;
      } catch {
        return null;
      }
    }),
  );
  return [...new Set(real.filter((path): path is string => path !== null))];
}

/** What the sandbox does about Unix sockets for one agent. */
export interface UnixSocketPlan {
  /** The seccomp filter's file; null when the agent may use named sockets (filter off). */
  filterFile: string | null;
  /** Allowed sockets that exist, by real path: mounted back after everything hidden. */
  shown: string[];
  /** Bound sockets to hide one by one (filter off only). */
  hidden: string[];
}

export class UnixSocketPlanError extends Error {}

/**
 * The plan for an agent: the filter, or (with allowed sockets) those sockets shown and every other
 * bound socket hidden. An allowed entry inside Gatehouse's folder, or that is no socket, opens
 * nothing.
 */
export async function planUnixSockets(
  allowed: readonly string[],
  runDir: string,
  gatehouseHome: string,
  listing?: string,
): Promise<UnixSocketPlan> {
  if (allowed.length === 0) {
    if (!unixSocketFilterSupported()) {
      throw new UnixSocketPlanError(
        `local sockets cannot be closed on ${process.arch} (the seccomp filter knows x86_64 and aarch64)`,
      );
    }
    return { filterFile: writeUnixSocketFilter(runDir), shown: [], hidden: [] };
  }
  const home = await realpath(gatehouseHome).catch(() => gatehouseHome);
  const shown: string[] = [];
  for (const entry of allowed) {
    const real = await realpath(entry).catch(() => null);
    if (!real || isInside(real, home) || isInside(real, gatehouseHome)) continue;
    if ((await lstat(real)).isSocket()) shown.push(real);
  }
  const hidden = (await boundSocketPaths(listing)).filter(
    (path) => !shown.includes(path) && !isInside(path, home),
  );
  if (hidden.length > MAX_HIDDEN_SOCKETS) {
    throw new UnixSocketPlanError(
      `${hidden.length} local sockets to hide, more than ${MAX_HIDDEN_SOCKETS}`,
    );
  }
  return { filterFile: null, shown: [...new Set(shown)], hidden };
}
