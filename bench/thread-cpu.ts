// CPU time by thread of this process (or of another, by pid), from Linux's scheduler statistics
// (`/proc/<pid>/task/<tid>/schedstat`: nanoseconds on a CPU). Node gives its threads no names, so the threads are told apart
// by what they did: the core's own (the main thread), the busiest other one over the window (the
// store's writer, on the request path), and the rest together (the reader, V8's collector helpers,
// libuv's pool). Elsewhere than Linux nothing is read and every figure is 0.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  mainNs: number;
  busiestOtherNs: number;
  restNs: number;
}

type Sample = Map<string, number>;

/** Each thread's CPU time so far, ns, by thread id: of this process, or of process `pid`. */
export function sampleThreads(pid: number | 'self' = 'self'): Sample {
  const sample: Sample = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return sample;
  }
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      sample.set(tid, ns);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return sample;
}

export function threadCpuSince(before: Sample): ThreadCpu {
  const after = sampleThreads();
  const main = String(process.pid);
  let mainNs = 0;
  const others: number[] = [];
  for (const [tid, ns] of after) {
    const used = ns - (before.get(tid) ?? 0);
    if (tid === main) mainNs = used;
    else others.push(used);
  }
  const busiestOtherNs = Math.max(0, ...others);
  const restNs = others.reduce((sum, ns) => sum + ns, 0) - busiestOtherNs;
  return { mainNs, busiestOtherNs, restNs };
}

/**
 * This process's main thread from the same statistics: nanoseconds on a CPU, and waiting in a run
 * queue, runnable, for one (zeros elsewhere than Linux). A stall the thread spent waiting is the
 * scheduler's, not its own work.
 */
export function mainThreadSched(): { cpuNs: number; waitNs: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    return { cpuNs: cpu ?? 0, waitNs: wait ?? 0 };
  } catch {
    return { cpuNs: 0, waitNs: 0 };
  }
}
