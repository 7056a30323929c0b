import { afterEach, describe, expect, it, vi } from 'vitest';
import { atLeast, installLogSink, logger, type LogSink } from './logger';

describe('logger', () => {
  let restore: LogSink | null = null;
  afterEach(() => {
    if (restore) installLogSink(restore);
    restore = null;
  });

  it('hands each line to the sink installed when it is written, with its level and scope', () => {
    const log = logger('store');
    const lines: unknown[][] = [];
    restore = installLogSink((...line) => lines.push(line));
    const error = new Error('disk full');
    log.debug('d');
    log.info('i', 1);
    log.warn('w');
    log.error('commit failed:', error);
    expect(lines).toEqual([
      ['debug', 'store', 'd', []],
      ['info', 'store', 'i', [1]],
      ['warn', 'store', 'w', []],
      ['error', 'store', 'commit failed:', [error]],
    ]);
  });

  it('before any sink is installed, prints to the console at the same level, scope first', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      logger('policy').warn('quorum ignored', 3);
      expect(spy).toHaveBeenCalledWith('[policy] quorum ignored', 3);
    } finally {
      spy.mockRestore();
    }
  });

  it('orders levels debug < info < warn < error', () => {
    expect(atLeast('error', 'warn')).toBe(true);
    expect(atLeast('warn', 'warn')).toBe(true);
    expect(atLeast('info', 'warn')).toBe(false);
    expect(atLeast('debug', 'info')).toBe(false);
  });
});
