// The live processes (Linux /proc) whose environment holds a marker a test gave its agent: what an
// agent and everything it started inherit, inside a sandbox or not; and a process to stand for a
// core whose folders are tagged with it.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { processIdentity } from '../../src/main/core/process-identity';
import { coreTag } from '../../src/main/core/sandbox/launch-folders';

export function pidsWithEnv(entry: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // A zombie's environment reads empty: it is gone but for its exit status.
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      if (environ.includes(entry)) found.push(Number(name));
    } catch {
      // Exited meanwhile, or not ours to read.
    }
  }
  return found;
}

/** The live processes of a session (its number is the pid of the process that started it). */
export function pidsInSession(sid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => processIdentity(pid)?.sid === sid);
}

/** The processes `pid` started, and theirs, and so on (every thread's children, Linux /proc). */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    } catch {
      // The thread or the process ended meanwhile.
    }
    for (const child of text ? text.split(/\s+/).map(Number) : [])
      out.push(child, ...descendantsOf(child));
  }
  return out;
}

/**
 * A process of its own (`sleep`), tagged as a core tags the folders it makes (its pid and the
 * kernel's start time, base 36): `end` stops it, and its tag then names a core that is gone.
 */
export function taggedProcess(): { tag: string; end(): Promise<void> } {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const { startTime } = processIdentity(child.pid!)!;
  return {
    tag: coreTag(child.pid!, startTime),
    async end() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
