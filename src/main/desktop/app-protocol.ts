import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { protocol } from 'electron';
import { contentTypeOf } from '../../shared/content-types';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { isInside } from '../core';
import { APP_SCHEME, appProtocolPath } from './security-policy';

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
    if (!isInside(file, base)) return new Response('not found', { status: 404 });
    const body = await readFile(file).catch(() =>
      extname(file) ? null : readFile(join(base, 'index.html')).catch(() => null),
    );
    if (body === null) return new Response('not found', { status: 404 });
    // A path without an extension is a route of the app: it got index.html above.
    const type = contentTypeOf(extname(file) || '.html');
    return new Response(new Uint8Array(body), {
      headers: { 'content-type': type, ...SECURITY_HEADERS },
    });
  });
}
