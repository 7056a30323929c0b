// Where a diff is computed. Small inputs are diffed in place (a worker round trip costs more than
// the diff); large ones in a Worker, so a 100k-line edit never freezes the dialog. Without a
// Worker (blocked, failed), the diff runs here with a tight time bound instead.
import { Change } from '@codemirror/merge';
import { computeChanges } from './diff-compute';
import type { DiffRequest, DiffResponse } from './diff-protocol';

export interface DiffResult {
  changes: readonly Change[];
  /** Time spent computing, in ms. */
  ms: number;
  where: 'main' | 'worker';
  /** Old-side lines a unified view would draw as removed, in all and in its largest block. */
  removed: { largest: number; total: number };
}

/** Below this many characters (both sides), diffing in place is faster than posting to a worker. */
const IN_PLACE_CHARS = 64 * 1024;
/** The worker may think this long before falling back to the imprecise algorithm. */
const WORKER_TIMEOUT_MS = 3_000;
/** On the UI thread, the bound that keeps a frame from stalling. */
const MAIN_TIMEOUT_MS = 60;

let worker: Worker | null = null;
let workerBroken = false;
let nextId = 1;
const waiting = new Map<number, { resolve: (r: DiffResult) => void; reject: (e: Error) => void }>();

function getWorker(): Worker | null {
  if (workerBroken) return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./diff.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    workerBroken = true;
    return null;
  }
  worker.onmessage = (event: MessageEvent<DiffResponse>) => {
    const data = event.data;
    const entry = waiting.get(data.id);
    if (!entry) return;
    waiting.delete(data.id);
    if ('error' in data) entry.reject(new Error(data.error));
    else
      entry.resolve({
        changes: fromFlat(data.flat),
        ms: data.ms,
        where: 'worker',
        removed: data.removed,
      });
  };
  worker.onerror = () => {
    // A worker that cannot load (CSP, protocol) fails every request; diff in place from now on.
    workerBroken = true;
    worker?.terminate();
    worker = null;
    for (const entry of waiting.values()) entry.reject(new Error('diff worker failed'));
    waiting.clear();
  };
  return worker;
}

function fromFlat(flat: Int32Array): Change[] {
  const out: Change[] = [];
  for (let i = 0; i + 3 < flat.length; i += 4) {
    out.push(new Change(flat[i]!, flat[i + 1]!, flat[i + 2]!, flat[i + 3]!));
  }
  return out;
}

function inPlace(a: string, b: string, timeout: number): DiffResult {
  return { ...computeChanges(a, b, timeout), where: 'main' };
}

/** Starts the worker ahead of the first large diff (loading it costs a few hundred ms). */
export function warmDiffWorker(): void {
  getWorker();
}

/** The changes between `a` and `b`, computed where it does not block the page. */
export async function computeDiff(a: string, b: string): Promise<DiffResult> {
  if (a === b) return { changes: [], ms: 0, where: 'main', removed: { largest: 0, total: 0 } };
  if (a.length + b.length <= IN_PLACE_CHARS) return inPlace(a, b, MAIN_TIMEOUT_MS);
  const w = getWorker();
  if (!w) return inPlace(a, b, MAIN_TIMEOUT_MS);
  const id = nextId++;
  try {
    return await new Promise<DiffResult>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      const request: DiffRequest = { id, a, b, timeoutMs: WORKER_TIMEOUT_MS };
      w.postMessage(request);
    });
  } catch {
    return inPlace(a, b, MAIN_TIMEOUT_MS);
  }
}
