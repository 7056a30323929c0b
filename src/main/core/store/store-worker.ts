// A store thread: the writing engine (role "writer") or a read-only connection (role "reader"),
// answering the core's calls. The core's clock comes with every call, so commit times, grant expiry
// and retention follow the one clock the core runs on, a test's included.
import { parentPort, workerData } from 'node:worker_threads';
import { openStoreEngine } from './engine';
import { StoreClosedError } from './errors';
import { openReadEngine } from './read-engine';
import {
  movedBuffer,
  toWire,
  type Call,
  type FromThread,
  type ReaderMethods,
  type ThreadConfig,
  type WriterMethods,
} from './thread-protocol';
import { walCheckpoints, type WalCheckpoints } from './wal-checkpoints';

const port = parentPort!;
const config = workerData as ThreadConfig;
let clock = config.now;
const now = () => clock;
// Replies settled in one turn (a commit settles a whole batch of decisions) cross in one message.
let outbox: FromThread[] = [];
let transfer: ArrayBuffer[] = [];
const post = (message: FromThread) => {
  // Bytes this thread encoded (a history page's JSON) are moved, not copied: nothing here keeps them.
  const moved = message.type === 'reply' ? movedBuffer(message.value) : null;
  if (moved && !transfer.includes(moved)) transfer.push(moved);
  outbox.push(message);
  if (outbox.length > 1) return;
  queueMicrotask(() => {
    const messages = outbox;
    const buffers = transfer;
    outbox = [];
    transfer = [];
    port.postMessage(messages, buffers);
  });
};

type Method = (...args: unknown[]) => unknown;
type Methods = ReaderMethods | WriterMethods;

/**
 * The reader opens its connection at its first call: it starts beside the writer, and the file is
 * only sure to exist, migrated, once the writer is open, which the core waits for before any call.
 */
function open(): { methods: Methods; close(): Promise<void> | void } {
  if (config.role === 'reader') {
    const engine = openReadEngine(config.path, config.key, now);
    const checkpoints: WalCheckpoints | null =
      config.walCheckpoints === 'elsewhere'
        ? walCheckpoints(config.path, (error) =>
            post({ type: 'report', context: 'WAL checkpoint', error: toWire(error) }),
          )
        : null;
    const methods: ReaderMethods = {
      ...engine,
      // Opens the connection (and starts the checkpoints) without waiting for a first read.
      open: () => undefined,
      walCheckpointStats: () => checkpoints?.stats() ?? { checkpoints: 0, frames: 0 },
    };
    return {
      methods,
      close: () => {
        checkpoints?.close();
        engine.close();
      },
    };
  }
  const engine = openStoreEngine({
    path: config.path,
    checkpointKey: config.key,
    now,
    onError: (error, context) => post({ type: 'report', context, error: toWire(error) }),
    ...(config.durability !== undefined ? { durability: config.durability } : {}),
    ...(config.busyTimeoutMs !== undefined ? { busyTimeoutMs: config.busyTimeoutMs } : {}),
    ...(config.walCheckpoints !== undefined ? { walCheckpoints: config.walCheckpoints } : {}),
    ...(config.retention !== undefined ? { retention: config.retention } : {}),
    ...(config.pruneIntervalMs !== undefined ? { pruneIntervalMs: config.pruneIntervalMs } : {}),
  });
  const methods: WriterMethods = {
    ...engine,
    open: () => undefined,
    walCheckpointStats: () => ({ checkpoints: 0, frames: 0 }),
    feedCursor: (name) => engine.feed.cursor(name),
    saveFeedCursor: (name, seq) => engine.feed.saveCursor(name, seq),
  };
  return { methods, close: () => engine.close() };
}

let engine: ReturnType<typeof open> | null = null;
let methods: Methods | null = null;
function opened(): ReturnType<typeof open> {
  if (!engine) {
    engine = open();
    methods = engine.methods;
  }
  return engine;
}
if (config.role === 'writer') {
  try {
    opened();
  } catch (error) {
    port.postMessage([{ type: 'failed', error: toWire(error) }]);
    process.exit(1);
  }
}
let closing = false;

function settle(call: Call, run: () => unknown): void {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    if (call.id === 0) post({ type: 'report', context: call.method, error: toWire(error) });
    else post({ type: 'error', id: call.id, error: toWire(error) });
    return;
  }
  if (call.id === 0) {
    if (value instanceof Promise)
      value.catch((error: unknown) =>
        post({ type: 'report', context: call.method, error: toWire(error) }),
      );
    return;
  }
  Promise.resolve(value).then(
    (result) => post({ type: 'reply', id: call.id, value: result }),
    (error: unknown) => post({ type: 'error', id: call.id, error: toWire(error) }),
  );
}

port.on('message', (calls: Call[]) => {
  for (const call of calls) {
    clock = call.now;
    if (call.method === 'close') {
      closing = true;
      settle(call, async () => {
        await engine?.close();
        // Replies go out before the thread ends.
        setImmediate(() => port.close());
      });
      continue;
    }
    settle(call, () => {
      if (closing) throw new StoreClosedError();
      opened();
      // The name crossed as text: only the map's own methods answer (never `constructor`).
      const method = Object.hasOwn(methods!, call.method)
        ? (methods as unknown as Record<string, Method>)[call.method]
        : undefined;
      if (typeof method !== 'function') throw new Error(`no store method ${call.method}`);
      return method(...call.args);
    });
  }
});
post({ type: 'ready' });
