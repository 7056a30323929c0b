import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, nearestRealPath, nearestRealPathSync } from './containment';

describe('isInside(path, folder)', () => {
  it('holds for the folder itself and anything below it', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/b/c/d.txt', '/a/b')).toBe(true);
  });

  it('does not hold for a parent, a sibling or an unrelated path', () => {
    expect(isInside('/a', '/a/b')).toBe(false);
    expect(isInside('/a/c', '/a/b')).toBe(false);
    expect(isInside('/etc/passwd', '/a/b')).toBe(false);
  });

  it('is not fooled by a shared name prefix', () => {
    expect(isInside('/a/bc', '/a/b')).toBe(false);
    expect(isInside('/a/b-other/x', '/a/b')).toBe(false);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
  });

  it('applies `..` before comparing', () => {
    expect(isInside('/a/b/../c', '/a/b')).toBe(false);
    expect(isInside('/a/b/../../etc', '/a/b')).toBe(false);
    expect(isInside('/a/b/c/../d', '/a/b')).toBe(true);
    expect(isInside('/a/b/c', '/a/x/../b')).toBe(true);
  });

  it('takes a name that merely starts with two dots as inside', () => {
    expect(isInside('/a/b/..hidden', '/a/b')).toBe(true);
    expect(isInside('/a/b/...', '/a/b')).toBe(true);
  });

  it('ignores a trailing separator on either side', () => {
    expect(isInside('/a/b/c', '/a/b/')).toBe(true);
    expect(isInside('/a/b/', '/a/b')).toBe(true);
    expect(isInside('/a/bc', '/a/b/')).toBe(false);
  });

  it('puts everything inside the root folder', () => {
    expect(isInside('/', '/')).toBe(true);
    expect(isInside('/etc/passwd', '/')).toBe(true);
    expect(isInside('/', '/a')).toBe(false);
  });

  it('compares Windows paths with their separators, drives and case', () => {
    const w = path.win32;
    expect(isInside('C:\\work\\src\\a.ts', 'C:\\work', w)).toBe(true);
    expect(isInside('C:\\workshop', 'C:\\work', w)).toBe(false);
    expect(isInside('D:\\work\\a.ts', 'C:\\work', w)).toBe(false);
    expect(isInside('c:\\WORK\\a.ts', 'C:\\work', w)).toBe(true);
  });
});

describe('nearestRealPath', () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-containment-')));
    mkdirSync(join(dir, 'session/src'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(dir, 'session/escape'));
    symlinkSync(join(dir, 'session/src'), join(dir, 'session/alias'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('follows a link out of the folder, so the real path is outside', async () => {
    const asked = join(dir, 'session/escape/new.txt');
    const session = join(dir, 'session');
    expect(isInside(asked, session)).toBe(true);
    expect(await nearestRealPath(asked)).toBe(join(dir, 'outside/new.txt'));
    expect(isInside(await nearestRealPath(asked), session)).toBe(false);
    expect(isInside(nearestRealPathSync(asked), session)).toBe(false);
  });

  it('resolves links in the existing part and appends the part that does not exist', async () => {
    const asked = join(dir, 'session/alias/deep/new/file.txt');
    const real = join(dir, 'session/src/deep/new/file.txt');
    expect(await nearestRealPath(asked)).toBe(real);
    expect(nearestRealPathSync(asked)).toBe(real);
  });

  it("takes `..` after a link from the link's target, as the kernel does", async () => {
    // escape -> outside, so escape/.. is dir itself, not the session folder the text suggests.
    const asked = `${dir}/session/escape/../kernel.txt`;
    expect(await nearestRealPath(asked)).toBe(join(dir, 'kernel.txt'));
    expect(nearestRealPathSync(asked)).toBe(join(dir, 'kernel.txt'));
    writeFileSync(asked, 'x');
    expect(realpathSync.native(asked)).toBe(join(dir, 'kernel.txt'));
    expect(await nearestRealPath(asked)).toBe(join(dir, 'kernel.txt'));
  });

  it('follows a dangling link whose target goes through another link and `..`', async () => {
    symlinkSync('escape/../later/file.txt', join(dir, 'session/dangling'));
    expect(await nearestRealPath(join(dir, 'session/dangling'))).toBe(join(dir, 'later/file.txt'));
    expect(nearestRealPathSync(join(dir, 'session/dangling'))).toBe(join(dir, 'later/file.txt'));
  });

  it('applies a `..` that follows no link before looking at the disk', async () => {
    const asked = join(dir, 'session/src/../../outside/x');
    expect(await nearestRealPath(asked)).toBe(join(dir, 'outside/x'));
    expect(nearestRealPathSync(asked)).toBe(join(dir, 'outside/x'));
  });

  it('throws what is not a missing file (a file used as a folder)', async () => {
    writeFileSync(join(dir, 'plain'), 'x');
    await expect(nearestRealPath(join(dir, 'plain/child'))).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
    expect(() => nearestRealPathSync(join(dir, 'plain/child'))).toThrow(/ENOTDIR/);
  });
});
