import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { outputOf } from './agent-output';

describe('the agent output stream', () => {
  it('passes the bytes through and closes at the end of output', async () => {
    const stdout = new PassThrough();
    const reader = outputOf(stdout).getReader();
    stdout.write('{"a":1}\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"a":1}\n');
    stdout.end();
    expect((await reader.read()).done).toBe(true);
  });

  it('a reader that gave up, then the agent ending its output, throws nowhere', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      const stdout = new PassThrough();
      const reader = outputOf(stdout).getReader();
      await reader.cancel();
      expect(stdout.destroyed).toBe(true);
      // The events a dying agent's pipe still emits after the connection was closed.
      stdout.emit('data', Buffer.from('late'));
      stdout.emit('end');
      stdout.emit('close');
      stdout.emit('error', new Error('pipe gone'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
