import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, isAbsolute, join, normalize, sep } from 'node:path';
import { contentTypeOf } from '../../shared/content-types';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { isInside } from '../core';

/** Serves the built renderer; unknown paths get index.html (the app routes by hash). */
export async function serveStatic(
  root: string,
  pathname: string,
  res: ServerResponse,
): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const candidate = normalize(join(root, decoded));
  // No static folder (an empty root) serves nothing of the disk: only a folder can contain paths.
  const inside = isAbsolute(root) && isInside(candidate, root);
  let file = inside ? candidate : join(root, 'index.html');
  const info = await stat(file).catch(() => null);
  if (!info || info.isDirectory()) file = join(root, 'index.html');
  const size = (await stat(file).catch(() => null))?.size;
  if (size == null) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
    res.end('The renderer is not built. Run `npm run build` (npm run headless does it for you).\n');
    return;
  }
  const immutable = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': contentTypeOf(extname(file)),
    'content-length': size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  });
  createReadStream(file).pipe(res);
}
