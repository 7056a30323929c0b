// An agent leads its own process group (spawned detached), so a signal to the group reaches what
// it spawned too: some launchers run the real agent as a child that ignores SIGTERM. The core
// signals the group itself, whoever spawned the agent (launcher.ts).

/** A process the core started: a ChildProcess, or an agent the launcher started (launched-agent.ts). */
export interface GroupLeader {
  readonly pid?: number | undefined;
  kill(signal: NodeJS.Signals): boolean;
}

export function signalGroup(leader: GroupLeader, signal: NodeJS.Signals): void {
  const pid = leader.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') leader.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
}

/** SIGTERM to the group, SIGKILL after `graceMs`, and SIGKILL again once the leader is gone. */
export async function stopGroup<T>(
  leader: GroupLeader,
  exited: Promise<T>,
  graceMs: number,
): Promise<T> {
  signalGroup(leader, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(leader, 'SIGKILL'), graceMs);
  const info = await exited;
  clearTimeout(timer);
  // The leader is gone; anything it left in its group goes too.
  signalGroup(leader, 'SIGKILL');
  return info;
}
