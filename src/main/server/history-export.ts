// GET /api/history/export: the history's export as a streamed download. The store's reader thread
// writes it to a fresh, randomly named file in a folder only this user can enter, and the server
// streams that file: the core's thread never holds the export's text, nor escapes it into JSON.
// The file's name leaves the folder as soon as it is open for reading, so nothing is left behind
// whether the client reads it all, goes away halfway or the export fails.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import {
  EXPORT_ROWS_HEADER,
  EXPORT_TRUNCATED_HEADER,
  HistoryExportInput,
} from '../../shared/contract';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { exportHistoryTo, type Core, logger } from '../core';
import { fail } from './respond';

const log = logger('http');

/** Where exports wait to be streamed, under the data folder (as `run/agents` is). */
export const exportsDir = (home: string) => join(home, 'run', 'exports');

/**
 * The folder, made 0700 if missing. A folder that is not a folder of this user's (a link, another
 * owner) fails the export: its files would be where someone else can reach them.
 */
async function privateFolder(dir: string): Promise<void> {
  await mkdir(join(dir, '..'), { recursive: true, mode: 0o700 });
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const info = await lstat(dir);
  // Owners and modes are POSIX's; elsewhere the folder inherits the data folder's access.
  const uid = process.getuid?.();
  const shared = uid !== undefined && (info.uid !== uid || (info.mode & 0o077) !== 0);
  if (!info.isDirectory() || shared) throw new Error(`${dir} is not a folder of this user's alone`);
}

/**
 * Streams the export at `path` and removes its name as soon as it is open. Opened without following
 * a link and without waiting on a pipe: only the regular file the store wrote is sent.
 */
async function streamFile(
  path: string,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  let stream;
  try {
    await rm(path, { force: true });
    const info = await file.stat();
    if (!info.isFile()) throw new Error('the export is not a regular file');
    res.writeHead(200, { ...headers, 'content-length': String(info.size) });
    stream = file.createReadStream();
  } finally {
    if (!stream) await file.close();
  }
  // The stream closes the file when it ends, fails or the client goes away.
  await pipeline(stream, res).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') log.error('export stream failed:', error);
  });
}

export class HistoryExports {
  /** Files a previous core left (it died mid-export) are removed once, before the first export. */
  private ready: Promise<void> | null = null;

  constructor(private readonly core: Core) {}

  private get dir(): string {
    return exportsDir(this.core.home);
  }

  async answer(url: URL, res: ServerResponse): Promise<void> {
    const input = HistoryExportInput.safeParse(Object.fromEntries(url.searchParams));
    if (!input.success) return fail(res, 400, 'ValidationError', z.prettifyError(input.error));
    this.ready ??= rm(this.dir, { recursive: true, force: true });
    await this.ready;
    await privateFolder(this.dir);
    const path = join(this.dir, randomBytes(16).toString('hex'));
    try {
      const out = await exportHistoryTo(this.core, input.data, path);
      await streamFile(path, res, {
        'content-type': `${out.mimeType}; charset=utf-8`,
        'content-disposition': `attachment; filename="${out.filename}"`,
        'cache-control': 'no-store',
        [EXPORT_ROWS_HEADER]: String(out.rows),
        [EXPORT_TRUNCATED_HEADER]: String(out.truncated),
        ...SECURITY_HEADERS,
      });
    } finally {
      await rm(path, { force: true });
    }
  }
}
