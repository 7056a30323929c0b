import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, isAbsolute, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { contentTypeOf } from '../../shared/content-types';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { isInside } from '../core';

const gzipped = promisify(gzip);
/** What the build holds that compresses well (over plain HTTP browsers offer gzip, not br). */
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.wasm']);
/**
 * The gzip copies of the build's assets, made once each: their names carry their content's hash,
 * so a file under a name never changes (the size and time are checked all the same). A few MB at
 * most: the build's own files, nothing a request can add.
 */
const compressed = new Map<string, { stamp: string; body: Promise<Buffer> }>();

/** Whether an Accept-Encoding header takes gzip (named, and not with a weight of zero). */
export function acceptsGzip(header: string): boolean {
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return name === 'gzip' && !params.some((p) => /^q\s*=\s*0(\.0*)?$/.test(p));
  });
}

function gzipOf(file: string, stamp: string): Promise<Buffer> {
  const held = compressed.get(file);
  if (held?.stamp === stamp) return held.body;
  const body = readFile(file).then((bytes) => gzipped(bytes, { level: 9 }));
  compressed.set(file, { stamp, body });
  body.catch(() => compressed.delete(file));
  return body;
}

/**
 * Serves the built renderer; unknown paths get index.html (the app routes by hash). The hashed
 * assets go gzipped to a browser that accepts it: a phone loads a third of the bytes.
 */
export async function serveStatic(
  root: string,
  pathname: string,
  res: ServerResponse,
  acceptEncoding = '',
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
  let found = await stat(file).catch(() => null);
  if (!found || found.isDirectory()) {
    file = join(root, 'index.html');
    found = await stat(file).catch(() => null);
  }
  if (!found) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
    res.end('The renderer is not built. Run `npm run build` (npm run headless does it for you).\n');
    return;
  }
  const { size, mtimeMs } = found;
  const immutable = file.includes(`${sep}assets${sep}`);
  const compressible = immutable && COMPRESSIBLE.has(extname(file));
  const headers = {
    'content-type': contentTypeOf(extname(file)),
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(compressible ? { vary: 'accept-encoding' } : {}),
    ...SECURITY_HEADERS,
  };
  if (compressible && acceptsGzip(acceptEncoding)) {
    const body = await gzipOf(file, `${size}:${mtimeMs}`).catch(() => null);
    if (body) {
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  createReadStream(file).pipe(res);
}
