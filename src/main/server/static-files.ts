import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { SECURITY_HEADERS } from '../../shared/security-headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

/** Serves the built renderer; unknown paths get index.html (the app routes by hash). */
export async function serveStatic(root: string, pathname: string, res: ServerResponse): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const candidate = normalize(join(root, decoded));
  const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
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
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  });
  createReadStream(file).pipe(res);
}
