// The store threads are typed from one method map: a wrong name or argument does not compile
// (`npm run typecheck` checks the expectations below), and a name that crosses anyway is refused.
import { describe, expect, it } from 'vitest';
import type { GrantRecord } from './grant-records';
import { openStore } from './store';

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
