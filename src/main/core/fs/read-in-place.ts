import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';

/**
 * Flags for reading a file an agent can reach: never through a link it put in the file's place,
 * and without waiting, so a named pipe it left there cannot hold the reader.
 */
export const READ_IN_PLACE =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export type ReadInPlace =
  | { kind: 'absent' }
  | { kind: 'other'; what: string }
  | { kind: 'file'; data: Buffer | null; size: number; mode: number };

/**
 * Reads the regular file at `real` (a real path): the last component is opened without following
 * a link and, on Linux, the opened file must still be at `real`. Files over `max` bytes are not
 * read: their size comes back alone.
 *
 * Read in place, not through the thread pool: there each of the five or six calls costs some ten
 * times what it costs here, and a request's few files hold its agent's answer. A caller that reads
 * many files yields between them.
 */
export function readInPlace(real: string, max: number): ReadInPlace {
  let fd: number;
  try {
    fd = openSync(real, READ_IN_PLACE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'other', what: 'a link' };
    return { kind: 'other', what: `unreadable (${code ?? 'error'})` };
  }
  try {
    if (process.platform === 'linux' && readlinkSync(`/proc/self/fd/${fd}`) !== real)
      return { kind: 'other', what: 'moved while it was read' };
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { kind: 'other', what: 'a folder' };
    if (!stats.isFile()) return { kind: 'other', what: 'not a regular file' };
    const mode = stats.mode & 0o7777;
    if (stats.size > max) return { kind: 'file', data: null, size: stats.size, mode };
    const read = readToEnd(fd, stats.size, max);
    return 'data' in read
      ? { kind: 'file', data: read.data, size: read.data.length, mode }
      : { kind: 'file', data: null, size: read.past, mode };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: 'other', what: `unreadable (${code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

/** The file to its end, which may lie past its measured size (it grew): `past` beyond `max`. */
function readToEnd(fd: number, measured: number, max: number): { data: Buffer } | { past: number } {
  const chunks: Buffer[] = [];
  let total = 0;
  // One byte more than measured: a file that grew is noticed, not cut short.
  let room = measured + 1;
  for (;;) {
    const chunk = Buffer.allocUnsafe(room);
    let filled = 0;
    while (filled < room) {
      const n = readSync(fd, chunk, filled, room - filled, null);
      if (n === 0) break;
      filled += n;
    }
    total += filled;
    if (total > max) return { past: total };
    chunks.push(chunk.subarray(0, filled));
    if (filled < room) return { data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
    room = Math.min(64 * 1024, max - total + 1);
  }
}
