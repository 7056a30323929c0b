import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RECENT_FOLDERS, RecentFolders } from './recent-folders';

let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('recent folders', () => {
  it('keeps the last ten, most recent first, across a restart', async () => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-recent-'));
    const folders = Array.from({ length: 12 }, (_, i) => join(home, `f${i}`));
    for (const f of folders) mkdirSync(f);
    const recent = new RecentFolders(home);
    for (const f of folders) await recent.used(f);
    await recent.used(folders[5]!);
    const expected = [
      folders[5],
      ...folders
        .slice(2)
        .reverse()
        .filter((f) => f !== folders[5]),
    ];
    expect(await new RecentFolders(home).list()).toEqual(expected.slice(0, MAX_RECENT_FOLDERS));
  });

  it('starts again from a file that is not its own', async () => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-recent-'));
    const file = join(home, 'recent-folders.json');
    for (const bad of [
      '{',
      JSON.stringify({ folders: ['relative'] }),
      JSON.stringify({ folders: Array(11).fill('/') }),
    ]) {
      writeFileSync(file, bad);
      expect(await new RecentFolders(home).list()).toEqual([]);
    }
    const recent = new RecentFolders(home);
    await recent.used(home);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ folders: [home] });
  });
});
