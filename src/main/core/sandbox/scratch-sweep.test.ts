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
});
