import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diskProbe,
  isInside,
  nearestRealPath,
  pathBelow,
  nearestRealPathSync,
  realPathLoose,
  realPathSync,
  type FsProbe,
} from './containment';

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

describe('pathBelow(path, folder)', () => {
  /** The definition: what path.relative says, when it does not climb out. */
  const reference = (p: string, folder: string): string | null => {
    const rel = path.posix.relative(folder, p);
    return rel === '' || (rel !== '..' && !rel.startsWith('../')) ? rel : null;
  };
  const NAMES = ['a', 'b', 'ab', '.', '..', '...', '.a', 'a.', ''];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const randomPath = () =>
    `/${Array.from({ length: random(5) }, () => NAMES[random(NAMES.length)]).join('/')}${random(4) === 0 ? '/' : ''}`;

  it('gives what path.relative gives, for plain paths and ones with `.`, `..` and doubled separators', () => {
    const pairs: [string, string][] = [
      ['/a/b', '/a/b'],
      ['/a/bc', '/a/b'],
      ['/a/b/c', '/a/b'],
      ['/x', '/'],
      ['/', '/'],
      ['//a', '/'],
      ['/a/b/..', '/a/b'],
      ['/a/b/...', '/a/b'],
      ['/a/b', '/a/b/'],
    ];
    for (let i = 0; i < 5_000; i++) pairs.push([randomPath(), randomPath()]);
    for (const [p, folder] of pairs)
      expect(pathBelow(p, folder), `${p} in ${folder}`).toBe(reference(p, folder));
  });

  it('answers a path of 2,000 names without resolving it', () => {
    const folder = `/w/${'a/'.repeat(2_000)}x`;
    expect(pathBelow(`${folder}/y/z`, folder)).toBe('y/z');
    expect(pathBelow(`${folder}z/y`, folder)).toBeNull();
    expect(pathBelow(`${folder}/../y`, folder)).toBeNull();
    expect(pathBelow(`${folder}/../x/y`, folder)).toBe('y');
  });

  it('keeps Windows separators in what it gives', () => {
    expect(pathBelow('C:\\work\\src\\a.ts', 'C:\\work', path.win32)).toBe('src\\a.ts');
    expect(pathBelow('C:\\workshop', 'C:\\work', path.win32)).toBeNull();
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

/**
 * The walk as first written: every level asked on the way up and again on the way down. Slow on
 * long paths, plainly right; the walk must give its answers.
 */
function referenceWalk(input: string, hops = 0): string | null {
  try {
    return realpathSync.native(input);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') return null;
  }
  const parent = path.dirname(input);
  if (parent === input) return input;
  const realParent = referenceWalk(parent, hops);
  if (realParent === null) return null;
  const base = path.basename(input);
  const candidate = path.join(realParent, base);
  if (base === '..' || base === '.') {
    // Only a folder, or one not made yet, has a `.` and a `..`.
    const stats = lstatSync(realParent, { throwIfNoEntry: false });
    return stats === undefined || stats.isDirectory() ? candidate : null;
  }
  let link: string;
  try {
    link = readlinkSync(candidate);
  } catch (error) {
    // A file used as a folder, or a folder that cannot be read: no such place can be known.
    return ['EINVAL', 'ENOENT'].includes((error as { code?: string }).code ?? '')
      ? candidate
      : null;
  }
  if (hops >= 40) return null;
  return referenceWalk(path.isAbsolute(link) ? link : `${realParent}/${link}`, hops + 1);
}

/** A small seeded generator, so a failure names a case that can be run again. */
function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

describe('realPathLoose on trees of folders, files and links', () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-walk-')));
  });
  // rmSync recurses once per level: a folder 1,900 deep is beyond its stack.
  afterAll(() => execFileSync('rm', ['-rf', dir]));

  const NAMES = ['a', 'b', 'c', 'l1', 'l2', 'f', 'gone', '.', '..'];

  /** Folders, files and links of every kind (in, out, dangling, through `..`, in a loop). */
  function plant(root: string, pick: (n: number) => number): void {
    const folders = [root];
    for (let i = 0; i < 12; i++) {
      const parent = folders[pick(folders.length)]!;
      const name = NAMES[pick(3)]!;
      mkdirSync(join(parent, name), { recursive: true });
      folders.push(join(parent, name));
    }
    for (const folder of folders) {
      if (pick(2) === 0) writeFileSync(join(folder, 'f'), 'x');
      for (const link of ['l1', 'l2']) {
        if (pick(3) === 0) continue;
        const targets = [
          '..',
          '../..',
          'a',
          'gone/deeper',
          join(root, NAMES[pick(3)]!),
          `${NAMES[pick(3)]!}/../${NAMES[pick(5)]!}`,
          link === 'l1' ? 'l2' : 'l1',
          'f',
        ];
        try {
          symlinkSync(targets[pick(targets.length)]!, join(folder, link));
        } catch {
          // A name already taken by a folder.
        }
      }
    }
  }

  it('gives the answers of a walk that asks at every level', () => {
    let compared = 0;
    for (let tree = 0; tree < 12; tree++) {
      const pick = seeded(tree + 1);
      const root = join(dir, `t${tree}`);
      mkdirSync(root);
      plant(root, pick);
      for (let i = 0; i < 150; i++) {
        const names = Array.from({ length: 1 + pick(8) }, () => NAMES[pick(NAMES.length)]!);
        const asked = `${root}/${names.join('/')}`;
        expect({ asked, real: realPathLoose(asked) }).toEqual({
          asked,
          real: referenceWalk(asked),
        });
        compared += 1;
      }
    }
    expect(compared).toBe(1_800);
  });

  it('asks the disk a handful of times, however long the path an agent names', () => {
    mkdirSync(join(dir, 'project/src'), { recursive: true });
    const asked: string[] = [];
    const counting: FsProbe = {
      ...diskProbe,
      realpath: (p) => (asked.push(p), diskProbe.realpath(p)),
      readlink: (p) => (asked.push(p), diskProbe.readlink(p)),
    };
    const questions = (p: string): { real: string | null; questions: number } => {
      asked.length = 0;
      const real = realPathLoose(p, counting);
      return { real, questions: asked.length };
    };
    expect(questions(join(dir, 'project/src'))).toEqual({
      real: join(dir, 'project/src'),
      questions: 1,
    });
    // A new file: the file, its folder, and whether the file's name is a link that leads nowhere.
    expect(questions(join(dir, 'project/src/new.ts'))).toEqual({
      real: join(dir, 'project/src/new.ts'),
      questions: 3,
    });
    // 2,000 folders that are not there: searched, not walked.
    const deep = join(dir, 'project/src', 'a/'.repeat(2_000));
    const long = questions(deep);
    expect(long.real).toBe(join(dir, 'project/src', 'a/'.repeat(2_000)).replace(/\/$/, ''));
    expect(long.questions).toBeLessThanOrEqual(30);
    expect(asked.every((p) => p.length <= deep.length)).toBe(true);
    // Each `x/..` climbs back to a folder that exists, where x could be a link: asked each time,
    // so a path made of them runs out of questions and its place is not known.
    const climbing = questions(`${dir}/project/${'x/../'.repeat(700)}`);
    expect(climbing.real).toBeNull();
    expect(climbing.questions).toBe(64);
  });

  it('reads the real path of a folder 1,900 levels deep, and of a named pipe, without opening them', async () => {
    const deep = join(dir, 'deep', 'd/'.repeat(1_900));
    mkdirSync(deep, { recursive: true });
    symlinkSync(join(dir, 'deep'), join(dir, 'deep-link'));
    const viaLink = deep.replace(join(dir, 'deep'), join(dir, 'deep-link'));
    expect(realPathSync(viaLink)).toBe(realpathSync.native(deep));
    expect(await nearestRealPath(`${viaLink}/new.txt`)).toBe(
      `${realpathSync.native(deep)}/new.txt`,
    );
    const fifo = join(deep, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(realPathSync(fifo.replace(join(dir, 'deep'), join(dir, 'deep-link')))).toBe(fifo);
    expect(() => realPathSync(join(deep, 'missing'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(() => realPathSync(join(fifo, 'child'))).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });
});
