import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireHomeLock,
  CORE_INFO_FILE,
  HomeLockedError,
  readCoreInfo,
  type HomeLock,
} from './home-lock';

describe('the home lock', () => {
  const homes: string[] = [];
  const locks: HomeLock[] = [];
  const freshHome = () => {
    const home = join(mkdtempSync(join(tmpdir(), 'gatehouse-lock-')), 'home');
    homes.push(home);
    return home;
  };
  afterEach(() => {
    for (const lock of locks.splice(0)) lock.release();
    for (const home of homes.splice(0)) rmSync(join(home, '..'), { recursive: true, force: true });
  });

  it('creates the home 0700 and writes core.json 0600 naming this process', () => {
    const home = freshHome();
    const lock = acquireHomeLock(home, 'headless', () => 1234);
    locks.push(lock);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, CORE_INFO_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'core.lock')).mode & 0o777).toBe(0o600);
    expect(readCoreInfo(home)).toEqual({
      kind: 'headless',
      pid: process.pid,
      version: expect.any(String),
      home,
      startedAt: 1234,
      socket: null,
      url: null,
    });
    lock.update({ url: 'http://127.0.0.1:7878' });
    expect(readCoreInfo(home)?.url).toBe('http://127.0.0.1:7878');
    expect(lock.info.url).toBe('http://127.0.0.1:7878');
  });

  it('refuses a second holder, naming the first, until the first lets go', () => {
    const home = freshHome();
    const first = acquireHomeLock(home, 'desktop');
    let refusal: unknown;
    try {
      locks.push(acquireHomeLock(home, 'headless'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HomeLockedError);
    expect((refusal as Error).message).toBe(
      `Gatehouse is already running on ${home}: desktop, pid ${process.pid}`,
    );
    // The refused attempt changed nothing the holder wrote.
    expect(readCoreInfo(home)?.kind).toBe('desktop');

    first.release();
    expect(existsSync(join(home, CORE_INFO_FILE))).toBe(false);
    first.release();
    const second = acquireHomeLock(home, 'headless');
    locks.push(second);
    expect(readCoreInfo(home)?.kind).toBe('headless');
  });

  it('says who holds it only as far as core.json tells', () => {
    const home = freshHome();
    locks.push(acquireHomeLock(home, 'headless'));
    rmSync(join(home, CORE_INFO_FILE));
    expect(() => acquireHomeLock(home, 'headless')).toThrow(
      `Gatehouse is already running on ${home} (another process holds ${join(home, 'core.lock')})`,
    );
  });

  it('ignores a core.json that is not one', () => {
    const home = freshHome();
    locks.push(acquireHomeLock(home, 'headless'));
    const file = join(home, CORE_INFO_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    writeFileSync(file, '{"pid": "not a number"');
    expect(readCoreInfo(home)).toBeNull();
    writeFileSync(file, JSON.stringify({ kind: 'headless', pid: 'x' }));
    expect(readCoreInfo(home)).toBeNull();
  });
});
