// A one-package npm registry on loopback, for tests that run npx offline from its cache: the
// package is packed with `npm pack` (or its tarball given), its packument and tarball served as
// registry.npmjs.org would.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

export interface NpmRegistry {
  /** `http://127.0.0.1:<port>/`, for npm_config_registry. */
  url: string;
  /** Stops serving (what npm cached stays). Idempotent. */
  close(): Promise<void>;
}

/** Serves `name`@1.0.0, a bin of the same name whose code is `code`; packed under `dir`. */
export async function startNpmRegistry(
  dir: string,
  name: string,
  code: string,
): Promise<NpmRegistry> {
  const source = join(dir, `${name}-source`);
  mkdirSync(source, { recursive: true });
  writeFileSync(
    join(source, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', bin: { [name]: 'index.js' } }),
  );
  writeFileSync(join(source, 'index.js'), `#!/usr/bin/env node\n${code}\n`, { mode: 0o755 });
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: source,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = readFileSync(join(dir, packed.stdout.trim().split('\n').at(-1)!));
  return servePackage({ name, version: '1.0.0', bin: { [name]: 'index.js' } }, tarball);
}

/**
 * Serves one version of one package: `manifest` (name, version and what else npm reads) with the
 * tarball's bytes. Anything else is 404, which npm takes for an optional dependency it can skip.
 */
export async function servePackage(
  manifest: { name: string; version: string } & Record<string, unknown>,
  tarball: Buffer,
): Promise<NpmRegistry> {
  const { name, version } = manifest;
  const file = `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  // npm asks for a scoped name with its slash escaped.
  const paths = new Set([
    `/${name}`,
    `/${name.replace('/', '%2f')}`,
    `/${name.replace('/', '%2F')}`,
  ]);
  const server = createServer((request, response) => {
    const { port } = server.address() as { port: number };
    if (paths.has(request.url ?? '')) {
      response.setHeader('content-type', 'application/json');
      const tarballUrl = `http://127.0.0.1:${port}/${name}/-/${file}`;
      response.end(
        JSON.stringify({
          name,
          'dist-tags': { latest: version },
          versions: { [version]: { ...manifest, dist: { tarball: tarballUrl, integrity } } },
        }),
      );
    } else if (request.url === `/${name}/-/${file}`) {
      response.end(tarball);
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  let closed: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
