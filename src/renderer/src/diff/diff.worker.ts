// Computes a diff off the UI thread: @codemirror/merge's diff is synchronous and, on large or very
// different inputs, takes far longer than a frame. Here it may take its time (bounded by the
// timeout, after which it falls back to the library's fast, imprecise algorithm).
import { computeChanges } from './diff-compute';
import type { DiffRequest, DiffResponse } from './diff-protocol';

self.onmessage = (event: MessageEvent<DiffRequest>) => {
  const { id, a, b, timeoutMs } = event.data;
  let response: DiffResponse;
  try {
    const { changes, ms, removed } = computeChanges(a, b, timeoutMs);
    const flat = new Int32Array(changes.length * 4);
    changes.forEach((c, i) => flat.set([c.fromA, c.toA, c.fromB, c.toB], i * 4));
    response = { id, flat, ms, removed };
  } catch (error) {
    response = { id, error: String(error) };
  }
  postMessage(response, { transfer: 'flat' in response ? [response.flat.buffer] : [] });
};
