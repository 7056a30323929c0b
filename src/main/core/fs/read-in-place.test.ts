import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInPlace } from './read-in-place';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-read-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readInPlace', () => {
  it('reads a regular file whole, with its mode', () => {
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'hello\n', { mode: 0o640 });
    const read = readInPlace(file, 1024);
    expect(read).toMatchObject({ kind: 'file', size: 6, mode: 0o640 });
    expect(read.kind === 'file' && read.data?.toString()).toBe('hello\n');
  });

  it('reads an empty file as empty, and one past the bound as its size alone', () => {
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'big'), 'x'.repeat(2048));
    const empty = readInPlace(join(dir, 'empty'), 10);
    expect(empty.kind === 'file' && empty.data?.length).toBe(0);
    expect(readInPlace(join(dir, 'big'), 2047)).toMatchObject({
      kind: 'file',
      data: null,
      size: 2048,
    });
    const exact = readInPlace(join(dir, 'big'), 2048);
    expect(exact.kind === 'file' && exact.data?.length).toBe(2048);
  });

  it('does not follow a link put in the file’s place, and says what else is there', () => {
    writeFileSync(join(dir, 'secret'), 'key');
    symlinkSync(join(dir, 'secret'), join(dir, 'link'));
    mkdirSync(join(dir, 'folder'));
    expect(readInPlace(join(dir, 'link'), 1024)).toEqual({ kind: 'other', what: 'a link' });
    expect(readInPlace(join(dir, 'folder'), 1024)).toEqual({ kind: 'other', what: 'a folder' });
    expect(readInPlace(join(dir, 'missing'), 1024)).toEqual({ kind: 'absent' });
    expect(readInPlace(join(dir, 'secret', 'below'), 1024)).toEqual({ kind: 'absent' });
  });

  it('a named pipe an agent left in the file’s place does not hold the reader', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readInPlace(fifo, 1024)).toEqual({ kind: 'other', what: 'not a regular file' });
  });

  it('a path that is not the file’s real path is not read through', () => {
    writeFileSync(join(dir, 'real.txt'), 'x');
    mkdirSync(join(dir, 'sub'));
    symlinkSync(dir, join(dir, 'sub', 'up'));
    // The last component is no link, but a folder on the way is: the file lies elsewhere.
    expect(readInPlace(join(dir, 'sub', 'up', 'real.txt'), 1024)).toEqual({
      kind: 'other',
      what: 'moved while it was read',
    });
  });
});
