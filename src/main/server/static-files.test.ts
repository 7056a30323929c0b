// The built renderer as the HTTP server sends it: the hashed assets gzipped to a browser that takes
// gzip, byte for byte the file once unpacked; the page itself, images, and a browser that refuses
// gzip get the file as it is.
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptsGzip, serveStatic } from './static-files';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'assets'));
const SCRIPT = 'export const greeting = "hello";\n'.repeat(500);
writeFileSync(join(root, 'index.html'), `<!doctype html>${'<p>page</p>'.repeat(200)}`);
writeFileSync(join(root, 'assets', 'index-abc.js'), SCRIPT);
writeFileSync(join(root, 'assets', 'logo-abc.png'), Buffer.alloc(4096, 7));

async function get(pathname: string, acceptEncoding?: string) {
  const res = Object.assign(new PassThrough(), {
    headers: {} as Record<string, unknown>,
    writeHead(status: number, headers: Record<string, unknown>) {
      this.headers = { status, ...headers };
      return this;
    },
  });
  await serveStatic(root, pathname, res as unknown as ServerResponse, acceptEncoding);
  const body = Buffer.concat(await res.toArray());
  return { headers: res.headers, body };
}

describe('serveStatic', () => {
  it('sends a hashed script gzipped to a browser that takes it', async () => {
    const { headers, body } = await get('/assets/index-abc.js', 'gzip, deflate');
    expect(headers).toMatchObject({
      status: 200,
      'content-encoding': 'gzip',
      'content-length': body.length,
      vary: 'accept-encoding',
      'content-type': 'text/javascript; charset=utf-8',
    });
    expect(body.length).toBeLessThan(SCRIPT.length / 10);
    expect(gunzipSync(body).toString()).toBe(SCRIPT);
  });

  it('sends it as it is to a browser that does not take gzip, or refuses it', async () => {
    for (const accept of [undefined, 'deflate, br', 'gzip;q=0, deflate', 'x-gzip']) {
      const { headers, body } = await get('/assets/index-abc.js', accept);
      expect(headers['content-encoding'], String(accept)).toBeUndefined();
      expect(headers).toMatchObject({ 'content-length': SCRIPT.length, vary: 'accept-encoding' });
      expect(body.toString()).toBe(SCRIPT);
    }
  });

  it('never compresses the page itself nor an image', async () => {
    for (const path of ['/', '/assets/logo-abc.png']) {
      const { headers } = await get(path, 'gzip');
      expect(headers['content-encoding'], path).toBeUndefined();
    }
  });

  it('sends what the file holds now when it changed under its name', async () => {
    await get('/assets/index-abc.js', 'gzip');
    const file = join(root, 'assets', 'index-abc.js');
    writeFileSync(file, 'export const greeting = "changed";\n'.repeat(400));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const { body } = await get('/assets/index-abc.js', 'gzip');
    expect(gunzipSync(body).toString()).toContain('"changed"');
    writeFileSync(file, SCRIPT);
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['deflate, GZIP;q=0.5', true],
    ['gzip;q=0', false],
    ['gzip; q=0.0, deflate', false],
    ['identity', false],
    ['', false],
    ['gzipped', false],
  ])('%j: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
