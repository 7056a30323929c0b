// The store threads are typed from one method map: a wrong name or argument does not compile
// (`npm run typecheck` checks the expectations below), and a name that crosses anyway is refused.
import { describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { encodeJson } from './encoded-json';
import type { GrantRecord } from './grant-records';
import { openStore } from './store';
import { movedBuffer } from './thread-protocol';

describe('the store threads’ method maps', () => {
  it('type every call by name and arguments', () => {
    // Never run: what matters is that each line compiles or, where marked, does not.
    const typed = async (store: Awaited<ReturnType<typeof openStore>>) => {
      const { writer, reader } = store.threads;
      const grants: GrantRecord[] = await reader.call('listGrants', {});
      const cursor: number = await writer.call('feedCursor', 'otlp');
      // @ts-expect-error: no such method
      await writer.call('recordDecisoin');
      // @ts-expect-error: a cursor's name is text
      await writer.call('feedCursor', 42);
      // @ts-expect-error: the reader does not commit
      await reader.call('saveGrant', {});
      return [grants, cursor];
    };
    expect(typed).toBeTypeOf('function');
  });

  it('answer only their own methods when a name crosses as text', async () => {
    const store = await openStore({ path: ':memory:' });
    try {
      const untyped = store.threads.writer as unknown as {
        call(method: string): Promise<unknown>;
      };
      await expect(untyped.call('constructor')).rejects.toThrow(/no store method constructor/);
      await expect(untyped.call('toString')).rejects.toThrow(/no store method toString/);
      expect(await store.threads.writer.call('feedCursor', 'none')).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('bytes a store thread answers with', () => {
  it('move when they are a buffer of their own, and are copied when cut from a shared one', () => {
    const page = encodeJson({ items: [], nextCursor: null });
    const pooled = Buffer.from('{"items":[]}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const { port1, port2 } = new MessageChannel();
    try {
      const moved = movedBuffer(page);
      expect(moved).toBe(page.buffer);
      port1.postMessage([page], [moved!]);
      // Moved: this side holds nothing of it any more.
      expect(page.byteLength).toBe(0);
      expect(movedBuffer(pooled)).toBeNull();
      expect(movedBuffer(new Uint8Array(new ArrayBuffer(8), 2, 4))).toBeNull();
      expect(movedBuffer('text')).toBeNull();
    } finally {
      port1.close();
      port2.close();
    }
  });
});
