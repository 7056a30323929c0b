import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { databasePath, defaultHome, openStore, placeDatabase, resolveHome } from '.';
import { dataFolderOf, formerDatabasePath } from './data-folder';
import { closedAfterEach, decision, request } from '../../../../test/support/store';

const made = closedAfterEach();

describe('GATEHOUSE_HOME', () => {
  it('defaults to the OS app-data folder', () => {
    expect(
      defaultHome({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'),
    ).toMatch(/AppData[\\/]Roaming[\\/]Gatehouse$/);
    expect(defaultHome({}, 'darwin', '/Users/me')).toBe(
      '/Users/me/Library/Application Support/Gatehouse',
    );
    expect(defaultHome({}, 'linux', '/home/me')).toBe('/home/me/.config/Gatehouse');
    expect(defaultHome({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/me')).toBe('/xdg/Gatehouse');
    expect(defaultHome({ XDG_CONFIG_HOME: '' }, 'freebsd', '/home/me')).toBe(
      '/home/me/.config/Gatehouse',
    );
  });

  it('GATEHOUSE_HOME wins when set and not blank', () => {
    expect(resolveHome({ GATEHOUSE_HOME: '/srv/gh' }, 'linux', '/home/me')).toBe('/srv/gh');
    expect(resolveHome({ GATEHOUSE_HOME: '  ' }, 'linux', '/home/me')).toBe(
      '/home/me/.config/Gatehouse',
    );
    expect(databasePath('/srv/gh')).toBe('/srv/gh/store/gatehouse.db');
    expect(dataFolderOf('/srv/gh/store/gatehouse.db')).toBe('/srv/gh');
    expect(dataFolderOf('/srv/gh/gatehouse.db')).toBe('/srv/gh');
  });
});

/** A database of the older layout, its last rows only in its WAL, and a key kept beside it. */
function formerLayout(home: string, rows: number): void {
  const scratch = join(home, 'scratch');
  mkdirSync(scratch);
  const db = new Database(join(scratch, 'gatehouse.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (n INTEGER)');
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  for (let n = 0; n < rows; n++) insert.run(n);
  // Copied while open: the rows are in the WAL, as when a core stopped without a checkpoint.
  for (const suffix of ['', '-wal', '-shm'])
    copyFileSync(join(scratch, `gatehouse.db${suffix}`), formerDatabasePath(home) + suffix);
  db.close();
  writeFileSync(`${formerDatabasePath(home)}.audit-key`, 'k'.repeat(64), { mode: 0o600 });
}

const rowsIn = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('the database has a folder of its own in the data folder', () => {
  it('moves a database of the older layout with its WAL and its key, and keeps every row', () => {
    const home = made.tempDir().dir;
    formerLayout(home, 25);
    const path = placeDatabase(home);
    expect(path).toBe(databasePath(home));
    expect(existsSync(formerDatabasePath(home))).toBe(false);
    expect(existsSync(`${formerDatabasePath(home)}-wal`)).toBe(false);
    expect(existsSync(`${path}.audit-key`)).toBe(true);
    expect(statSync(join(home, 'store')).mode & 0o777).toBe(0o700);
    expect(rowsIn(path)).toBe(25);
  });

  it('finishes a move cut short after the WAL: the database follows it', () => {
    const home = made.tempDir().dir;
    formerLayout(home, 7);
    const path = databasePath(home);
    // As a start that stopped after moving the WAL left it.
    mkdirSync(join(home, 'store'), { mode: 0o700 });
    renameSync(`${formerDatabasePath(home)}-wal`, `${path}-wal`);
    expect(placeDatabase(home)).toBe(path);
    expect(existsSync(formerDatabasePath(home))).toBe(false);
    expect(rowsIn(path)).toBe(7);
  });

  it('refuses two databases, or two WALs, one in each place, and moves nothing', () => {
    for (const suffix of ['', '-wal']) {
      const home = made.tempDir().dir;
      formerLayout(home, 3);
      mkdirSync(join(home, 'store'));
      writeFileSync(databasePath(home) + suffix, '');
      expect(() => placeDatabase(home)).toThrow(/two history databases/);
      expect(existsSync(formerDatabasePath(home))).toBe(true);
      expect(existsSync(`${formerDatabasePath(home)}-wal`)).toBe(true);
      expect(existsSync(`${formerDatabasePath(home)}.audit-key`)).toBe(true);
    }
  });

  it('leaves a data folder without a database of the older layout as it is', () => {
    const home = made.tempDir().dir;
    expect(placeDatabase(home)).toBe(databasePath(home));
    expect(readdirSync(home)).toEqual([]);
  });

  it("the store's commits wake no watch on the data folder", async () => {
    const home = made.tempDir().dir;
    const heard: string[] = [];
    let sentinel: () => void = () => {};
    const sentinelSeen = new Promise<void>((resolve) => (sentinel = resolve));
    const watcher = watch(home, { persistent: false }, (_event, name) => {
      if (name === 'sentinel') sentinel();
      else heard.push(String(name));
    });
    try {
      const store = made.store(await openStore({ path: databasePath(home), checkpointKey: 'k' }));
      // The first commit made the folder: what is heard from here on is the commits.
      await store.flush();
      heard.length = 0;
      for (let i = 0; i < 20; i++) {
        const req = request();
        store.recordRequest(req, {});
        await store.recordDecision(decision(req), { latencyMs: 1 });
      }
      await store.flush();
      // Events come in order: once the sentinel's is heard, every event before it was too.
      writeFileSync(join(home, 'sentinel'), 'x');
      await sentinelSeen;
      expect(heard).toEqual([]);
    } finally {
      watcher.close();
    }
  });
});
