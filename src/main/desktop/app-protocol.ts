import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { protocol } from 'electron';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { APP_SCHEME, appProtocolPath } from './security-policy';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Must run before app ready: the scheme behaves like https (standard, secure origin, fetch). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the renderer build from gatehouse://app/ instead of file://, with the same headers as HTTP. */
export function registerAppProtocol(root: string): void {
  const base = normalize(root);
  protocol.handle(APP_SCHEME, async (request) => {
    const relative = appProtocolPath(request.url, request.method);
    if (relative === null) return new Response('not found', { status: 404 });
    const file = normalize(join(base, relative));
    if (!file.startsWith(base + sep)) return new Response('not found', { status: 404 });
    const body = await readFile(file).catch(() =>
      extname(file) ? null : readFile(join(base, 'index.html')).catch(() => null),
    );
    if (body === null) return new Response('not found', { status: 404 });
    const type = extname(file)
      ? (TYPES[extname(file)] ?? 'application/octet-stream')
      : TYPES['.html']!;
    return new Response(new Uint8Array(body), {
      headers: { 'content-type': type, ...SECURITY_HEADERS },
    });
  });
}
