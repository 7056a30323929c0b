import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepStale } from './scratch-sweep';

const parent = mkdtempSync(join(tmpdir(), 'gatehouse-sweep-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('what a killed run left behind', () => {
  it('is removed once older than any run, and a folder in use is left alone', async () => {
    const old = join(parent, 'gatehouse-preview-old');
    const fresh = join(parent, 'gatehouse-preview-fresh');
    const other = join(parent, 'unrelated-old');
    for (const dir of [old, fresh, other]) mkdirSync(dir);
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(old, hourAgo, hourAgo);
    utimesSync(other, hourAgo, hourAgo);
    await sweepStale(parent, 'gatehouse-preview-');
    expect([existsSync(old), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
  });

  it('lists a folder at most once a minute', async () => {
    const folder = mkdtempSync(join(parent, 'minute-'));
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const leftover = (name: string) => {
      const dir = join(folder, name);
      mkdirSync(dir);
      utimesSync(dir, hourAgo, hourAgo);
      return dir;
    };
    const start = Date.now();
    const first = leftover('gatehouse-preview-first');
    await sweepStale(folder, 'gatehouse-preview-', start);
    const second = leftover('gatehouse-preview-second');
    await sweepStale(folder, 'gatehouse-preview-', start + 59_000);
    expect([existsSync(first), existsSync(second)]).toEqual([false, true]);
    await sweepStale(folder, 'gatehouse-preview-', start + 61_000);
    expect(existsSync(second)).toBe(false);
  });
});
