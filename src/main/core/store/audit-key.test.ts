import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStoreEngine } from '.';
import {
  AuditKeyError,
  defaultKeyPath,
  findAuditKey,
  legacyKeyPath,
  resolveAuditKey,
} from './audit-key';
import { decide, tempDir, type TempDir } from '../../../../test/support/store';

const mode = (path: string) => statSync(path).mode & 0o777;

let tmp: TempDir;
afterEach(() => tmp?.cleanup());

/** A data folder and, beside it (not inside), a user home for the default key file. */
function layout() {
  tmp = tempDir();
  const home = join(tmp.dir, 'data');
  const user = join(tmp.dir, 'user');
  mkdirSync(home);
  mkdirSync(user);
  return { home, user, dbPath: join(home, 'gatehouse.db') };
}

describe('where the audit key comes from', () => {
  it('default: a 0600 file in a 0700 folder outside the data folder; nothing is created in the data folder', () => {
    const { home, user, dbPath } = layout();
    const env: Record<string, string | undefined> = {};
    const first = resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user });
    const file = join(user, '.local', 'state', 'gatehouse', 'audit-key');
    expect(first.location).toBe(file);
    expect(mode(file)).toBe(0o600);
    expect(mode(join(user, '.local', 'state', 'gatehouse'))).toBe(0o700);
    expect(readdirSync(home)).toEqual([]);
    // The same key the next time.
    const again = resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user });
    expect(again.key.equals(first.key)).toBe(true);
  });

  it('default locations per OS follow XDG_STATE_HOME and LOCALAPPDATA', () => {
    expect(defaultKeyPath({ XDG_STATE_HOME: '/s' }, 'linux', '/u')).toBe('/s/gatehouse/audit-key');
    expect(defaultKeyPath({}, 'linux', '/u')).toBe('/u/.local/state/gatehouse/audit-key');
    expect(defaultKeyPath({}, 'darwin', '/u')).toBe(
      '/u/Library/Application Support/Gatehouse Audit/audit-key',
    );
    expect(defaultKeyPath({ LOCALAPPDATA: 'C:/L' }, 'win32', 'C:/u')).toBe(
      join('C:/L', 'Gatehouse', 'audit-key'),
    );
  });

  it('GATEHOUSE_AUDIT_KEY wins, is read once and leaves the environment', () => {
    const { home, user, dbPath } = layout();
    const hex = randomBytes(32).toString('hex');
    const env: Record<string, string | undefined> = { GATEHOUSE_AUDIT_KEY: hex };
    const got = resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user });
    expect(got.key.toString('hex')).toBe(hex);
    expect(env.GATEHOUSE_AUDIT_KEY).toBeUndefined();
    expect(existsSync(join(user, '.local'))).toBe(false);
    expect(() =>
      resolveAuditKey({ home, dbPath, env: { GATEHOUSE_AUDIT_KEY: 'not hex' }, userHome: user }),
    ).toThrow(/64 hex digits/);
  });

  it('GATEHOUSE_AUDIT_KEY_FILE: outside the data folder after resolving links, 0600 or stricter', () => {
    const { home, user, dbPath } = layout();
    const file = join(user, 'key');
    const env = { GATEHOUSE_AUDIT_KEY_FILE: file };
    const created = resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user });
    expect(created.location).toBe(file);
    expect(mode(file)).toBe(0o600);

    chmodSync(file, 0o644);
    expect(() => resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user })).toThrow(
      /mode 644; it must be 0600 or stricter/,
    );
    chmodSync(file, 0o400);
    expect(
      resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user }).key.equals(
        created.key,
      ),
    ).toBe(true);

    // Inside the data folder, directly or through a link from outside: refused.
    const inside = { GATEHOUSE_AUDIT_KEY_FILE: join(home, 'key') };
    expect(() => resolveAuditKey({ home, dbPath, env: inside, userHome: user })).toThrow(
      AuditKeyError,
    );
    symlinkSync(home, join(user, 'alias'));
    const viaLink = { GATEHOUSE_AUDIT_KEY_FILE: join(user, 'alias', 'key') };
    expect(() => resolveAuditKey({ home, dbPath, env: viaLink, userHome: user })).toThrow(
      /inside the data folder/,
    );
    expect(existsSync(join(home, 'key'))).toBe(false);
  });

  it('a default file that would fall inside the data folder is refused', () => {
    const { home, dbPath } = layout();
    expect(() =>
      resolveAuditKey({ home, dbPath, env: { XDG_STATE_HOME: home }, platform: 'linux' }),
    ).toThrow(/inside the data folder/);
  });

  it('an old key beside the database is moved out once, and the chain it signed still verifies', async () => {
    const { home, user, dbPath } = layout();
    const old = randomBytes(32);
    const store = openStoreEngine({ path: dbPath, checkpointKey: old });
    await decide(store);
    await store.close();
    writeFileSync(legacyKeyPath(dbPath), old.toString('hex') + '\n', { mode: 0o644 });

    const env = {};
    const moved = resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user });
    expect(moved.movedFrom).toBe(legacyKeyPath(dbPath));
    expect(moved.key.equals(old)).toBe(true);
    expect(existsSync(legacyKeyPath(dbPath))).toBe(false);
    expect(readFileSync(moved.location, 'utf8').trim()).toBe(old.toString('hex'));
    expect(
      resolveAuditKey({ home, dbPath, env, platform: 'linux', userHome: user }).movedFrom,
    ).toBe(null);
    const reopened = openStoreEngine({ path: dbPath, checkpointKey: moved.key });
    expect(reopened.verifyChain()).toMatchObject({ ok: true, rows: 2 });
    await reopened.close();
  });

  it('finding the key for a check creates and moves nothing', () => {
    const { home, user, dbPath } = layout();
    writeFileSync(legacyKeyPath(dbPath), randomBytes(32).toString('hex'), { mode: 0o600 });
    expect(findAuditKey({ home, dbPath, env: {}, platform: 'linux', userHome: user })).toBeNull();
    expect(existsSync(join(user, '.local'))).toBe(false);
    expect(existsSync(legacyKeyPath(dbPath))).toBe(true);
  });
});

describe('a key file made by several processes at once', () => {
  it('is made once, whole: each process reads the same key, and no file of its making is left', async () => {
    const { home, dbPath, user } = layout();
    const file = join(user, 'key');
    const source = resolve('src/main/core/store/audit-key.ts');
    const script = [
      `const { resolveAuditKey } = await import(${JSON.stringify(source)});`,
      `const ctx = { home: ${JSON.stringify(home)}, dbPath: ${JSON.stringify(dbPath)} };`,
      `const env = { GATEHOUSE_AUDIT_KEY_FILE: ${JSON.stringify(file)} };`,
      'process.stdout.write(resolveAuditKey({ ...ctx, env }).key.toString("hex"));',
    ].join('\n');
    const keys = await Promise.all(
      Array.from({ length: 4 }, () => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        return new Promise<string>((done) => child.once('close', () => done(out)));
      }),
    );
    const written = readFileSync(file, 'utf8').trim();
    expect(written).toMatch(/^[0-9a-f]{64}$/);
    expect(keys).toEqual(Array.from({ length: 4 }, () => written));
    expect(readdirSync(user)).toEqual(['key']);
  }, 60_000);
});

describe('the data folder is private', () => {
  it('creates the folder 0700 and gatehouse.db, -wal and -shm 0600, and tightens an old 0644 database', async () => {
    tmp = tempDir();
    const home = join(tmp.dir, 'fresh');
    const dbPath = join(home, 'gatehouse.db');
    const store = openStoreEngine({ path: dbPath, checkpointKey: 'k' });
    await decide(store);
    expect(mode(home)).toBe(0o700);
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) expect(mode(file)).toBe(0o600);
    expect(readdirSync(home).sort()).toEqual([
      'gatehouse.db',
      'gatehouse.db-shm',
      'gatehouse.db-wal',
    ]);
    await store.close();

    chmodSync(dbPath, 0o644);
    const again = openStoreEngine({ path: dbPath, checkpointKey: 'k' });
    await decide(again);
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) expect(mode(file)).toBe(0o600);
    await again.close();
  });
});
