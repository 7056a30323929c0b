// GET /api/history/export against a real core and HTTP server: the file streamed with its headers,
// the same bytes as the store's pages, errors as JSON, and the temporary file gone however the
// download ends. Then a hostile process of the same user at the export folder.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { request as httpGet } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  EXPORT_ROWS_HEADER,
  EXPORT_TRUNCATED_HEADER,
  HISTORY_EXPORT_PATH,
} from '../../src/shared/contract';
import { exportsDir } from '../../src/main/server/history-export';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { decision, request } from '../support/store';

const ROWS = 1_200;
let gh: TestGatehouse;
let dir: string;

beforeAll(async () => {
  gh = await startGatehouse({});
  dir = exportsDir(gh.home);
  const decided = Array.from({ length: ROWS }, (_, i) =>
    request({
      title: `row ${i}`,
      issuedAt: 1_700_000_000_000 + i,
      command: i % 2 ? `echo ${i}` : null,
    }),
  );
  for (const req of decided) gh.core.store.recordRequest(req);
  await Promise.all(
    decided.map((req, i) =>
      gh.core.store.recordDecision(decision(req, i % 3 ? 'allow' : 'deny'), {
        latencyMs: 1,
        votes: [],
        displayed: true,
      }),
    ),
  );
}, 60_000);
afterAll(async () => gh.close());

const url = (query: string) => `${gh.server.url}${HISTORY_EXPORT_PATH}?${query}`;
const auth = () => ({ authorization: `Bearer ${gh.token}` });
/** The store's own pages of the same filter, joined: what the download must hold. */
async function expected(
  format: 'jsonl' | 'csv',
  filter: Record<string, string> = {},
): Promise<string> {
  const path = join(gh.home, `expected-${format}-${Math.random().toString(16).slice(2)}`);
  await gh.core.store.exportHistoryToFile(filter, format, path, Infinity);
  const text = readFileSync(path, 'utf8');
  rmSync(path);
  return text;
}
/** Descriptors of this process open on a file of the export folder (deleted or not). */
const openExports = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false;
    }
  });

describe('GET /api/history/export', { timeout: 60_000 }, () => {
  it('streams the filter as JSONL or CSV with its name, size, rows and truncation in the headers', async () => {
    const jsonl = await fetch(url('format=jsonl'), { headers: auth() });
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(jsonl.headers.get('content-disposition')).toMatch(
      /^attachment; filename="gatehouse-history-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.jsonl"$/,
    );
    expect(jsonl.headers.get(EXPORT_ROWS_HEADER)).toBe(String(ROWS));
    expect(jsonl.headers.get(EXPORT_TRUNCATED_HEADER)).toBe('false');
    expect(jsonl.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await jsonl.text();
    expect(jsonl.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(body).toBe(await expected('jsonl'));

    const csv = await fetch(url('format=csv&decision=deny'), { headers: auth() });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/\.csv"$/);
    expect(csv.headers.get(EXPORT_ROWS_HEADER)).toBe(String(ROWS / 3));
    expect(await csv.text()).toBe(await expected('csv', { decision: 'deny' }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the renderer’s client reads the same file, rows and truncation', async () => {
    const got = await gh.api.fetchExport({ format: 'jsonl', decision: 'deny' });
    expect({ rows: got.rows, truncated: got.truncated }).toEqual({
      rows: ROWS / 3,
      truncated: false,
    });
    expect(got.filename).toMatch(/^gatehouse-history-.*\.jsonl$/);
    expect(await got.blob.text()).toBe(await expected('jsonl', { decision: 'deny' }));
  });

  it('answers 401 without the bearer token, and 400 as JSON on a bad filter, leaving no file', async () => {
    const before = readdirSync(join(gh.home, 'run'));
    const anonymous = await fetch(url('format=jsonl'));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { name: 'Unauthorized' } });
    for (const query of [
      'format=xml',
      'format=csv&decision=maybe',
      'format=csv&extra=1',
      'format=csv&from=soon',
      '',
    ]) {
      const bad = await fetch(url(query), { headers: auth() });
      expect(bad.status, query).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await bad.json()).toMatchObject({ error: { name: 'ValidationError' } });
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(join(gh.home, 'run'))).toEqual(before);
    expect((await fetch(url('format=csv'), { method: 'POST', headers: auth() })).status).toBe(405);
  });

  it.runIf(process.platform === 'linux')(
    'a client that goes away mid-body leaves no file and no open descriptor behind',
    async () => {
      await new Promise<void>((resolve, reject) => {
        const req = httpGet(url('format=jsonl'), { headers: auth() }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end();
      });
      await vi.waitFor(() => expect(openExports()).toEqual([]), { timeout: 10_000, interval: 20 });
      expect(readdirSync(dir)).toEqual([]);
      // The server goes on answering exports.
      const again = await fetch(url('format=jsonl&decision=deny'), { headers: auth() });
      expect(again.headers.get(EXPORT_ROWS_HEADER)).toBe(String(ROWS / 3));
      await again.text();
      await vi.waitFor(() => expect(openExports()).toEqual([]), { timeout: 10_000, interval: 20 });
    },
  );
});

describe('a hostile process of the same user at the export folder', { timeout: 60_000 }, () => {
  it('finds a folder only its owner enters, and no name it could have guessed', async () => {
    const names = new Set<string>();
    const watcher = watch(dir, (_event, name) => name && names.add(name));
    try {
      for (let i = 0; i < 3; i++)
        await (await fetch(url('format=csv'), { headers: auth() })).text();
    } finally {
      watcher.close();
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // Each export its own random name (128 bits), gone once streamed.
    expect(names.size).toBe(3);
    for (const name of names) expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a link it plants in the folder is never followed, and its target is left as it was', async () => {
    const target = join(gh.home, 'victim.txt');
    writeFileSync(target, 'untouched');
    const planted = Array.from({ length: 64 }, (_, i) =>
      join(dir, i.toString(16).padStart(32, '0')),
    );
    for (const link of planted) symlinkSync(target, link);
    const got = await fetch(url('format=jsonl'), { headers: auth() });
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(await expected('jsonl'));
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(readdirSync(dir).sort()).toEqual(planted.map((p) => p.slice(dir.length + 1)).sort());
    for (const link of planted) rmSync(link);
  });

  it('the folder swapped for a link elsewhere: the export fails and nothing is written there', async () => {
    const elsewhere = join(gh.home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    rmSync(dir, { recursive: true });
    symlinkSync(elsewhere, dir);
    try {
      const got = await fetch(url('format=jsonl'), { headers: auth() });
      expect(got.status).toBe(500);
      expect(await got.json()).toMatchObject({ error: { name: 'InternalError' } });
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(dir);
    }
    // The folder made anew, the next export goes through.
    const next = await fetch(url('format=csv&decision=deny'), { headers: auth() });
    expect(next.status).toBe(200);
    await next.text();
  });
});
