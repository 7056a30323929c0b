// The allow-list network's listeners bound by systemd's socket activator, where it is installed:
// a small C program binds every loopback port the agent may use (the proxy's, the allowed ones) in
// about a millisecond, and execs the Node relay (relay.ts) with those listeners only when the agent
// first connects. A connection made before the relay has booted waits in the listener's backlog, it
// is not refused; a session whose agent never goes online never boots the relay at all. Without the
// activator, or when it does not behave as checked here, the relay is started at once (relay.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import {
  agentVariables,
  RELAY_SOURCE,
  relaySpecOnly,
  SAVED_STDIN_FD,
  shellQuote,
  type RelaySpec,
} from './relay';

const execFileAsync = promisify(execFile);

const ACTIVATOR = 'systemd-socket-activate';
/** Its log on stderr, plain: the line per bound listener is the signal that the agent may start. */
const LOG_ENV = [
  'SYSTEMD_LOG_TARGET=console',
  'SYSTEMD_LOG_LEVEL=info',
  'SYSTEMD_LOG_COLOR=0',
  'SYSTEMD_LOG_TIME=0',
  'SYSTEMD_LOG_LOCATION=0',
].join(' ');

/** Per bwrap binary, the activator that was checked to work inside a sandbox (null: none). */
const checked = new Map<string, Promise<string | null>>();

/**
 * The socket activator on PATH if, run in a network namespace of its own, it binds a port and says
 * so as expected; null otherwise. Checked once per bwrap binary while Gatehouse runs.
 */
export function socketActivator(bwrap: string): Promise<string | null> {
  let found = checked.get(bwrap);
  if (!found) {
    found = check(bwrap);
    checked.set(bwrap, found);
  }
  return found;
}

async function check(bwrap: string): Promise<string | null> {
  const activator = onPath(ACTIVATOR);
  if (!activator) return null;
  const probe = `{ ${LOG_ENV} "$0" -l 127.0.0.1:9 /bin/true 2>&1 >/dev/null </dev/null & } | { IFS= read -r line; echo "$line"; }`;
  try {
    const { stdout } = await execFileAsync(
      bwrap,
      [
        '--unshare-user',
        '--unshare-pid',
        '--unshare-net',
        '--die-with-parent',
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--',
        '/bin/sh',
        '-c',
        probe,
        activator,
      ],
      { timeout: 5000 },
    );
    return stdout.startsWith('Listening on 127.0.0.1:9 ') ? activator : null;
  } catch {
    return null;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * The sandbox's first command with the activator: it binds every forward's port, then the agent's
 * side counts one line per listener before the agent runs (125 if the activator stopped first).
 * What the activator and the relay say later is drained, never shown to the agent. Null when a
 * forward is `localhost` (the relay binds both loopback addresses, one of which may not exist).
 */
export function activatedLaunch(
  activator: string,
  nodePath: string,
  spec: Omit<RelaySpec, 'nested'>,
  nested: readonly string[] | null,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } | null {
  if (spec.forwards.some((forward) => forward.host === 'localhost')) return null;
  const listen = spec.forwards.map(
    (forward) => `-l ${shellQuote(`${forward.host}:${forward.port}`)}`,
  );
  const saved = SAVED_STDIN_FD;
  const count = spec.forwards.length;
  const script = [
    `exec ${saved}<&0`,
    `{ ${LOG_ENV} ${shellQuote(activator)} ${listen.join(' ')} "$1" -e "$2" "$3" 2>&1 >/dev/null </dev/null ${saved}<&- 9<&- & } | {`,
    'shift 3',
    'n=0',
    `while [ "$n" -lt ${count} ] && IFS= read -r line; do case "$line" in 'Listening on '*) n=$((n + 1)) ;; esac; done`,
    `[ "$n" -eq ${count} ] || exit 125`,
    // Outside the agent's process tree: the pipe stays read, so neither writer meets a closed pipe.
    `exec 7<&0; (cat <&7 >/dev/null 7<&- ${saved}<&- 9<&- &)`,
    `exec 0<&${saved} ${saved}<&- 7<&-`,
    ...agentVariables(spec),
    'exec "$@"',
    '}',
  ].join('\n');
  return {
    command: '/bin/sh',
    args: [
      '-c',
      script,
      'sh',
      nodePath,
      RELAY_SOURCE,
      relaySpecOnly(spec),
      ...(nested ?? []),
      command,
      ...args,
    ],
  };
}
