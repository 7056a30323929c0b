/** Messages between the page and the diff worker. */
export interface DiffRequest {
  id: number;
  a: string;
  b: string;
  timeoutMs: number;
}

/**
 * `flat` holds fromA, toA, fromB, toB of each change, four numbers per change; `removed` counts
 * the old-side lines a unified view would draw as removed (all of them, and the largest block).
 */
export type DiffResponse =
  | { id: number; flat: Int32Array; ms: number; removed: { largest: number; total: number } }
  | { id: number; error: string };
