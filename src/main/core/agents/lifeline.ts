// An agent outside bubblewrap dies with its core, however the core ends (SIGKILL, a crash, the
// desktop app killed): nothing in the core runs then, so the kernel must tell. The agent is
// started through `sh` with one more descriptor, the lifeline, whose other end only the core holds.
// Before handing over to the agent (exec: same pid, same pipes), sh leaves a watcher behind that
// reads the lifeline; the kernel closes the core's end when the core dies, the read returns, and
// the watcher kills the agent's whole process group (the agent is its leader: spawned detached),
// what the agent spawned included. Under bubblewrap `--die-with-parent` and the pid namespace do
// this instead. An agent that exits takes its watcher with it: the launcher ends the group then.
// Works alike on Linux and macOS; Windows has no `sh` and no process groups.

/** The descriptor the lifeline is on in the agent's launcher; the agent itself never has it. */
export const LIFELINE_FD = 3;

// The watcher keeps none of the agent's pipes (the core would not see the agent's stdout close).
// `kill -9 0` is the whole process group, the watcher included.
const LAUNCHER = [
  `( read -r _ <&${LIFELINE_FD}; kill -9 0 ) </dev/null >/dev/null 2>&1 &`,
  `exec ${LIFELINE_FD}<&-`,
  'exec "$@"',
].join('\n');

/** `command args` behind the lifeline launcher, or null where there is none (Windows). */
export function behindLifeline(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } | null {
  if (platform === 'win32') return null;
  return { command: '/bin/sh', args: ['-c', LAUNCHER, 'gatehouse-agent', command, ...args] };
}
