// The export written to a file by the thread that reads it: the same text as the engine's pages,
// the rows it holds, the limit, and a file that is its own (0600, created exclusively, never through
// a link, removed when the export fails).
import {
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEngine } from '.';
import type { ExportChunk } from './export';
import { writeExportFile } from './export-file';
import { decide, tempDir, tempStore, type TempDir } from '../../../../test/support/store';

const ROWS = 1_100;
let store: StoreEngine;
let cleanup: () => Promise<void>;
let out: TempDir;
let n = 0;
const fresh = () => join(out.dir, `export-${n++}`);

beforeAll(async () => {
  ({ store, cleanup } = tempStore());
  out = tempDir();
  // Enough rows to span several pages (500 each).
  for (let i = 0; i < ROWS; i++)
    await decide(store, { title: `row ${i}`, issuedAt: 1_600_000_000_000 + i });
});
afterAll(async () => {
  await cleanup();
  out.cleanup();
});

describe('an export written to a file', () => {
  it('holds exactly the engine’s pages, joined, and counts its rows (JSONL and CSV)', async () => {
    for (const format of ['jsonl', 'csv'] as const) {
      const path = fresh();
      expect(await store.exportHistoryToFile({}, format, path, Infinity)).toEqual({
        rows: ROWS,
        truncated: false,
      });
      expect(readFileSync(path, 'utf8')).toBe([...store.exportHistory({}, format)].join(''));
    }
    const path = fresh();
    expect(await store.exportHistoryToFile({ agentId: 'nobody' }, 'jsonl', path, 10)).toEqual({
      rows: 0,
      truncated: false,
    });
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('stops at the limit, even inside a page, and says the filter matched more', async () => {
    const path = fresh();
    expect(await store.exportHistoryToFile({}, 'jsonl', path, 700)).toEqual({
      rows: 700,
      truncated: true,
    });
    const whole = [...store.exportHistory({}, 'jsonl')].join('').split('\n');
    expect(readFileSync(path, 'utf8')).toBe(whole.slice(0, 700).join('\n') + '\n');
    expect(await store.exportHistoryToFile({}, 'jsonl', fresh(), ROWS)).toEqual({
      rows: ROWS,
      truncated: false,
    });
    expect(await store.exportHistoryToFile({}, 'csv', fresh(), ROWS - 1)).toEqual({
      rows: ROWS - 1,
      truncated: true,
    });
  });

  it('is readable by its owner only', async () => {
    const path = fresh();
    await store.exportHistoryToFile({}, 'csv', path, 10);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a name that exists, a planted link included, and leaves both as they were', async () => {
    const existing = fresh();
    writeFileSync(existing, 'keep me');
    await expect(store.exportHistoryToFile({}, 'jsonl', existing, 10)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(existing, 'utf8')).toBe('keep me');

    const target = fresh();
    writeFileSync(target, 'the target');
    const link = fresh();
    symlinkSync(target, link);
    await expect(store.exportHistoryToFile({}, 'jsonl', link, 10)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(target, 'utf8')).toBe('the target');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);

    // A dangling link is not followed to create its target either.
    const dangling = fresh();
    const nowhere = join(out.dir, 'created-through-a-link');
    symlinkSync(nowhere, dangling);
    await expect(store.exportHistoryToFile({}, 'jsonl', dangling, 10)).rejects.toThrow(/EEXIST/);
    expect(readdirSync(out.dir)).not.toContain('created-through-a-link');
  });

  it('removes what it wrote when the reading fails halfway, and passes the error on', async () => {
    function* failing(): Generator<ExportChunk, boolean, undefined> {
      yield { text: 'a page\n', rows: 1 };
      throw new Error('the database went away');
    }
    const path = fresh();
    await expect(writeExportFile(failing(), path)).rejects.toThrow('the database went away');
    expect(readdirSync(out.dir)).not.toContain(path.slice(out.dir.length + 1));
  });
});
