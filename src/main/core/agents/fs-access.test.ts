import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutsideSessionError, writeInside } from './fs-access';

let root: string;
let outside: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-fs-root-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-fs-outside-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
}, 60_000);

describe('writeInside', () => {
  it('writes a new file, creating its folders, and keeps the mode of an existing one', async () => {
    const written = await writeInside(root, join(root, 'a/b/new.txt'), 'new');
    expect(readFileSync(join(root, 'a/b/new.txt'), 'utf8')).toBe('new');
    const stats = statSync(join(root, 'a/b/new.txt'), { bigint: true });
    expect(written).toEqual({
      path: join(root, 'a/b/new.txt'),
      inode: stats.ino.toString(),
      device: stats.dev.toString(),
      bytes: 3,
      sha256: createHash('sha256').update('new').digest('hex'),
    });
    expect(readdirSync(join(root, 'a/b'))).toEqual(['new.txt']);

    const script = join(root, 'run.sh');
    writeFileSync(script, 'old');
    chmodSync(script, 0o750);
    await writeInside(root, script, 'echo hi');
    expect(readFileSync(script, 'utf8')).toBe('echo hi');
    expect(statSync(script).mode & 0o777).toBe(0o750);
  });

  it('refuses a path outside the folder', async () => {
    await expect(writeInside(root, join(outside, 'x.txt'), 'x')).rejects.toBeInstanceOf(
      OutsideSessionError,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a hard link inside the folder to a file outside: the outside file is unchanged', async () => {
    const victim = join(outside, 'victim.txt');
    writeFileSync(victim, 'original');
    linkSync(victim, join(root, 'linked.txt'));
    await writeInside(root, join(root, 'linked.txt'), 'replaced');
    expect(readFileSync(victim, 'utf8')).toBe('original');
    expect(readFileSync(join(root, 'linked.txt'), 'utf8')).toBe('replaced');
  });

  it('a symlink pointing outside, as the last component or a folder on the way: never written through', async () => {
    const victim = join(outside, 'victim.txt');
    writeFileSync(victim, 'original');
    symlinkSync(victim, join(root, 'file-link.txt'));
    symlinkSync(outside, join(root, 'dir-link'));
    await writeInside(root, join(root, 'file-link.txt'), 'x').catch(() => undefined);
    await writeInside(root, join(root, 'dir-link/victim.txt'), 'x').catch(() => undefined);
    await writeInside(root, join(root, 'dir-link/new.txt'), 'x').catch(() => undefined);
    expect(readFileSync(victim, 'utf8')).toBe('original');
    expect(readdirSync(outside)).toEqual(['victim.txt']);
  });

  // A process that flips root/sub between a real folder and a link to the outside folder as fast
  // as it can, each step one atomic rename, while the test writes through writeInside.
  const RACER = `
    const { mkdirSync, renameSync, symlinkSync } = require('node:fs');
    const { join } = require('node:path');
    const [root, outside] = process.argv.slice(1);
    const sub = join(root, 'sub');
    const dirPark = join(root, '.dir');
    const linkPark = join(root, '.link');
    let n = 0;
    // A folder the writer made at 'sub' while it was absent is moved aside.
    const clear = () => { try { renameSync(sub, join(root, '.made-' + n++)); } catch {} };
    process.stdout.write('ready\\n');
    for (;;) {
      try { mkdirSync(dirPark); } catch {}
      try { symlinkSync(outside, linkPark); } catch {}
      try { renameSync(sub, dirPark); } catch { clear(); }
      try { renameSync(linkPark, sub); } catch { clear(); }
      try { renameSync(sub, linkPark); } catch { clear(); }
      try { renameSync(dirPark, sub); } catch { clear(); }
    }
  `;

  it('a folder swapped for a link to the outside during 10,000 writes: nothing is written outside', async () => {
    const racer: ChildProcess = spawn(process.execPath, ['-e', RACER, root, outside], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready) => racer.stdout!.once('data', () => ready()));
    let written = 0;
    let refused = 0;
    try {
      const total = 10_000;
      const concurrency = 16;
      let next = 0;
      const worker = async () => {
        while (next < total) {
          const i = next++;
          try {
            await writeInside(root, join(root, 'sub', `f${i}.txt`), `content ${i}`);
            written++;
          } catch {
            refused++;
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    } finally {
      racer.kill('SIGKILL');
      await new Promise((done) => racer.once('exit', done));
    }
    expect(written + refused).toBe(10_000);
    expect(written).toBeGreaterThan(0);
    expect(readdirSync(outside)).toEqual([]);
  }, 120_000);
});
