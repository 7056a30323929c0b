// An agent yields the CPUs while it boots. Fifty agents booting at once on two cores kept the core's
// thread waiting its turn for a CPU for 40–140 ms at a time while it had nothing else to do but
// answer: each agent leads a session of its own (spawned detached), and Linux schedules each session
// as a group of its own (autogroups), so the core's group was one of fifty. A starting agent's group
// is lowered (nice 5) until its start is over, then set back. A nice on the agent's process would
// not do: what it forks while it boots (the sandbox's processes, the agent itself) would keep it.
// Lowering a group and setting it back to 0 need no privilege, but without CAP_SYS_ADMIN the kernel
// takes one such change every 100 ms, machine-wide, and refuses the others (EAGAIN): a group owed
// its 0 is set back on a later try, and no group is lowered while one is owed, so a person's agent
// never stays lowered. Where the kernel has no autogroups, or the agents run in a CPU cgroup of their
// own (which autogroups give way to), the file is absent or changes nothing: the agent starts as
// before.
import { readFileSync, writeFileSync } from 'node:fs';

export const STARTING_NICE = 5;

/** Past the kernel's 100 ms between two changes of a group's nice by an unprivileged process. */
const RETRY_MS = 110;

export type GroupWrite = 'done' | 'busy' | 'failed';

/** The scheduling group's nice of a process, read and written (`/proc/<pid>/autogroup`). */
export interface GroupFiles {
  read(pid: number): number | null;
  write(pid: number, nice: number): GroupWrite;
}

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

const procGroups: GroupFiles = {
  read: groupNice,
  write(pid, nice) {
    try {
      writeFileSync(groupFile(pid), String(nice));
      return 'done';
    } catch (error) {
      // Gone, no autogroups here, or not ours; or another change within the last 100 ms.
      return (error as NodeJS.ErrnoException).code === 'EAGAIN' ? 'busy' : 'failed';
    }
  },
};

interface Owed {
  pid: number;
  running: () => boolean;
}

export class StartPriority {
  /** Groups lowered here whose 0 the kernel refused for now: set back before any other is lowered. */
  private readonly owed: Owed[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly files: GroupFiles = procGroups,
    private readonly retryMs = RETRY_MS,
  ) {}

  /**
   * Lowers the scheduling group of a starting agent; the function returned sets it back, once, and
   * only while `running` says the process runs (a pid that ended may name another process) and its
   * group still holds the value set here (an agent that chose a nice of its own keeps it).
   */
  yieldWhileStarting(pid: number | undefined, running: () => boolean): () => void {
    if (pid === undefined || process.platform !== 'linux' || this.owed.length > 0) return () => {};
    if (this.files.write(pid, STARTING_NICE) !== 'done') return () => {};
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (!this.setBack({ pid, running })) this.owe({ pid, running });
    };
  }

  /** How many groups wait to be set back. */
  get owing(): number {
    return this.owed.length;
  }

  /** False when the kernel refused it for now. */
  private setBack({ pid, running }: Owed): boolean {
    if (!running() || this.files.read(pid) !== STARTING_NICE) return true;
    return this.files.write(pid, 0) !== 'busy';
  }

  private owe(owed: Owed): void {
    this.owed.push(owed);
    if (!this.timer) this.retryLater();
  }

  private retry(): void {
    this.timer = null;
    while (this.owed.length > 0 && this.setBack(this.owed[0]!)) this.owed.shift();
    if (this.owed.length > 0) this.retryLater();
  }

  private retryLater(): void {
    this.timer = setTimeout(() => this.retry(), this.retryMs);
    this.timer.unref();
  }
}

/** One per process: the kernel's limit is the machine's, not a core's. */
const startPriority = new StartPriority();

export const yieldWhileStarting = (pid: number | undefined, running: () => boolean) =>
  startPriority.yieldWhileStarting(pid, running);
