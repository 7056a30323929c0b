// An agent leads its own process group (spawned detached), so a signal to the group reaches what
// it spawned too: some launchers run the real agent as a child that ignores SIGTERM.
import type { ChildProcess } from 'node:child_process';

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
}

/** SIGTERM to the group, SIGKILL after `graceMs`, and SIGKILL again once the leader is gone. */
export async function stopGroup<T>(child: ChildProcess, exited: Promise<T>, graceMs: number): Promise<T> {
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  const info = await exited;
  clearTimeout(timer);
  // The leader is gone; anything it left in its group goes too.
  signalGroup(child, 'SIGKILL');
  return info;
}
