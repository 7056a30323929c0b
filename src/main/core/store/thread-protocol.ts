// What the core's thread and a store thread say to each other. Both ends are this code, so messages
// are typed rather than validated; what crosses is what the engine takes and returns, copied by the
// structured clone, except bytes a method answers with (a Uint8Array over a buffer of its own), which
// are moved: such a method must keep nothing of them. Errors cross as name and message and are
// rebuilt as the store's own classes, so callers tell a refused record from a failed commit as they
// would on one thread.
import { RecordRejectedError, StoreClosedError, StoreInputError, StoreWriteError } from './errors';
import type { Durability } from './database';
import type { StoreEngine } from './engine';
import type { ReadEngine } from './read-engine';
import type { RetentionPolicy } from './retention';
import type { WalCheckpointStats } from './wal-checkpoints';

export type ThreadRole = 'writer' | 'reader';

export interface ThreadConfig {
  role: ThreadRole;
  path: string;
  key: Buffer;
  /** The core's clock when the thread starts; every call then brings the clock's reading. */
  now: number;
  durability?: Durability;
  busyTimeoutMs?: number;
  /** The writer's: 'elsewhere' when the reader's thread copies the WAL back (wal-checkpoints.ts). */
  walCheckpoints?: 'self' | 'elsewhere';
  retention?: RetentionPolicy;
  pruneIntervalMs?: number;
}

/**
 * What a reader thread answers: the read engine's methods, opening its connection, and its WAL
 * copies. Both ends compile against this map, so a wrong name or argument is a type error.
 */
export type ReaderMethods = Omit<ReadEngine, 'exportHistory'> & {
  open(): void;
  walCheckpointStats(): WalCheckpointStats;
};

/**
 * What the writer thread answers: the engine's methods and its feed's cursors. An in-memory store
 * has no second connection, so its writer answers every read too.
 */
export type WriterMethods = Omit<StoreEngine, 'path' | 'feed' | 'exportHistory'> &
  ReaderMethods & {
    feedCursor(name: string): number;
    saveFeedCursor(name: string, seq: number): void;
  };

/** The names of a method map's methods. */
export type MethodName<M> = {
  [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never;
}[keyof M] &
  string;

/** What calling `name` on a thread of map `M` takes and answers. */
export type MethodArgs<M, K extends keyof M> = M[K] extends (...args: infer A) => unknown
  ? A
  : never;
export type MethodResult<M, K extends keyof M> = M[K] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

/** One call to the engine; `id` 0 asks for no reply (a failure is reported instead). */
export interface Call {
  id: number;
  now: number;
  method: string;
  args: unknown[];
}

export interface WireError {
  name: string;
  message: string;
}

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { type: 'reply'; id: number; value: unknown }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'report'; context: string; error: WireError };

export function toWire(error: unknown): WireError {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

const CLASSES: Record<string, new (message: string) => Error> = {
  StoreInputError,
  RecordRejectedError,
  StoreWriteError,
};

export function fromWire(wire: WireError): Error {
  if (wire.name === 'StoreClosedError') return new StoreClosedError();
  const Class = CLASSES[wire.name];
  if (Class) return new Class(wire.message);
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}

/**
 * The buffer a reply's bytes are moved in, or null to copy the reply: only a view over the whole of
 * a buffer of its own moves. A Buffer cut from Node's shared pool (small buffers are) would take
 * other bytes with it, and Node refuses to move the pool.
 */
export function movedBuffer(value: unknown): ArrayBuffer | null {
  return value instanceof Uint8Array &&
    value.buffer instanceof ArrayBuffer &&
    value.byteOffset === 0 &&
    value.byteLength === value.buffer.byteLength
    ? value.buffer
    : null;
}
