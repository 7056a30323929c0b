import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NPM_CACHE_INSIDE, npmView } from './npm-view';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-npm-view-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hex = (text: string, algorithm = 'sha256') =>
  createHash(algorithm).update(text).digest('hex');
const split = (h: string) => [h.slice(0, 2), h.slice(2, 4), h.slice(4)];

describe('npm inside a sandbox', () => {
  it('gets a cache of its own, with what npx ran before read-only and the registry’s answer for it', async () => {
    const cache = join(root, 'user', '.npm');
    const npx = join(cache, '_npx', 'f43478f41fd818ba');
    mkdirSync(join(npx, 'node_modules'), { recursive: true });
    writeFileSync(join(npx, 'package.json'), JSON.stringify({ dependencies: { '@a/b': '^1' } }));
    // The index bucket of the packument npm fetched for @a/b, and its content.
    const packument = '{"name":"@a/b"}';
    const digest = createHash('sha512').update(packument).digest();
    const key = 'make-fetch-happen:request-cache:https://registry.npmjs.org/@a%2fb';
    const bucket = join(cache, '_cacache', 'index-v5', ...split(hex(key)));
    mkdirSync(join(bucket, '..'), { recursive: true });
    writeFileSync(
      bucket,
      `\nxx\t{"key":"${key}","integrity":"sha512-${digest.toString('base64')}"}`,
    );
    const content = join(
      cache,
      '_cacache',
      'content-v2',
      'sha512',
      ...split(digest.toString('hex')),
    );
    mkdirSync(join(content, '..'), { recursive: true });
    writeFileSync(content, packument);
    mkdirSync(join(cache, '_npx', 'not-a-hash!'));

    const privateTmp = join(root, 'tmp');
    const view = await npmView(cache, privateTmp, undefined);
    expect(view.env).toEqual({ npm_config_cache: NPM_CACHE_INSIDE });
    expect(view.binds).toEqual(
      [
        {
          source: join(npx, 'node_modules'),
          target: `${NPM_CACHE_INSIDE}/_npx/f43478f41fd818ba/node_modules`,
        },
        {
          source: join(npx, 'package.json'),
          target: `${NPM_CACHE_INSIDE}/_npx/f43478f41fd818ba/package.json`,
        },
        {
          source: content,
          target: join(
            NPM_CACHE_INSIDE,
            '_cacache',
            'content-v2',
            'sha512',
            ...split(digest.toString('hex')),
          ),
        },
      ].sort((a, b) => a.target.localeCompare(b.target)),
    );
    // The bucket is a copy npm may rewrite; the lock folder is the session's own.
    const copy = join(privateTmp, '.npm', '_cacache', 'index-v5', ...split(hex(key)));
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(bucket, 'utf8'));
    expect(existsSync(join(privateTmp, '.npm', '_npx', 'f43478f41fd818ba'))).toBe(true);
  });

  it('without a user cache, npm simply starts empty', async () => {
    const view = await npmView(
      join(root, 'nobody', '.npm'),
      join(root, 'tmp2'),
      'http://r.example/',
    );
    expect(view.binds).toEqual([]);
  });
});
