// An agent yields the CPUs while it boots. Fifty agents booting at once on two cores kept the core's
// thread waiting its turn for a CPU for 40–140 ms at a time while it had nothing else to do but
// answer: each agent leads a session of its own (spawned detached), and Linux schedules each session
// as a group of its own (autogroups), so the core's group was one of fifty. A starting agent's group
// is lowered (nice 5) until its start is over, then set back. A nice on the agent's process would
// not do: what it forks while it boots (the sandbox's processes, the agent itself) would keep it.
// Lowering a group needs no privilege, nor does setting it back to 0. Where the kernel has no
// autogroups, or the agents run in a CPU cgroup of their own (which autogroups give way to), the
// file is absent or changes nothing: the agent starts as before.
import { readFileSync, writeFileSync } from 'node:fs';

export const STARTING_NICE = 5;

const groupFile = (pid: number) => `/proc/${pid}/autogroup`;

/** The nice of the scheduling group `pid` runs in (`/autogroup-17 nice 5`), or null. */
export function groupNice(pid: number): number | null {
  try {
    const nice = / nice (-?\d+)$/.exec(readFileSync(groupFile(pid), 'utf8').trim())?.[1];
    return nice === undefined ? null : Number(nice);
  } catch {
    return null;
  }
}

function setGroupNice(pid: number, nice: number): boolean {
  try {
    writeFileSync(groupFile(pid), String(nice));
    return true;
  } catch {
    // Gone, no autogroups here, or not ours.
    return false;
  }
}

/**
 * Lowers the scheduling group of a starting agent; the function returned sets it back, once, and
 * only if it still holds the value set here (an agent that chose a nice of its own keeps it).
 */
export function yieldWhileStarting(pid: number | undefined): () => void {
  if (pid === undefined || process.platform !== 'linux' || !setGroupNice(pid, STARTING_NICE))
    return () => {};
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (groupNice(pid) === STARTING_NICE) setGroupNice(pid, 0);
  };
}
