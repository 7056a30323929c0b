// What the core's thread and a store thread say to each other. Both ends are this code, so messages
// are typed rather than validated; what crosses is what the engine takes and returns, copied by the
// structured clone. Errors cross as name and message and are rebuilt as the store's own classes, so
// callers tell a refused record from a failed commit as they would on one thread.
import {
  RecordRejectedError,
  StoreClosedError,
  StoreInputError,
  StoreWriteError,
} from './errors';
import type { Durability } from './database';
import type { RetentionPolicy } from './retention';

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
