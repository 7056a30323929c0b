// A one-package npm registry on loopback, for tests that run npx offline from its cache: the
// package is packed with `npm pack`, its packument and tarball served as registry.npmjs.org would.
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
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const server = createServer((request, response) => {
    const { port } = server.address() as { port: number };
    if (request.url === `/${name}`) {
      response.setHeader('content-type', 'application/json');
      const tarballUrl = `http://127.0.0.1:${port}/${name}/-/${name}-1.0.0.tgz`;
      const version = { name, version: '1.0.0', bin: { [name]: 'index.js' } };
      response.end(
        JSON.stringify({
          name,
          'dist-tags': { latest: '1.0.0' },
          versions: { '1.0.0': { ...version, dist: { tarball: tarballUrl, integrity } } },
        }),
      );
    } else if (request.url === `/${name}/-/${name}-1.0.0.tgz`) {
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
