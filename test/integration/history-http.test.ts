// GET /api/history against a real core and HTTP server: the page is encoded as JSON on the store's
// reader thread and its bytes are the response's body. They must be the answer the route gave when the
// page crossed as objects and was checked and encoded on the core's thread — every page of a walk by
// cursor, filtered or searched, with what an agent put in its titles, commands and paths — and the
// query is still checked (a cursor the store cannot read included) and the bearer token required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryPage, type HistoryQuery } from '../../src/shared/history';
import type { Decider } from '../../src/shared/domain';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { decision, request } from '../support/store';

const T0 = 1_700_000_000_000;
const AGENTS = ['gemini', 'claude', 'codex'];
const DECIDERS: Decider[] = [
  { type: 'person', clientId: 'desktop', surface: 'dialog' },
  { type: 'rule', ruleId: 'allow-tests' },
  { type: 'timeout' },
  { type: 'grant', grantId: 'g-1' },
  { type: 'mode', mode: 'acceptEdits' },
];
/** What agents send, hostile to an encoder: quotes, escapes, line separators, markup, astral text. */
const LIES = [
  '"quoted" \\ back',
  'line\u2028sep\u2029para',
  '</script><b>x</b>',
  'tab\there\nnl',
  '😀 ümlaut',
];

let gh: TestGatehouse;

beforeAll(async () => {
  gh = await startGatehouse({});
  const decided = Array.from({ length: 260 }, (_, i) => {
    const command = i % 2 ? `npm run build -- ${LIES[i % LIES.length]}` : null;
    return request({
      agentId: AGENTS[i % AGENTS.length]!,
      sessionId: `s${i % 4}`,
      title: i % 7 === 0 ? `build ${LIES[i % LIES.length]}` : `step ${i} of the build`,
      command,
      paths: command ? [] : [`src/build/${LIES[i % LIES.length]}-${i}.ts`],
      // Several decisions in one millisecond: their order within it comes from the page's sort.
      issuedAt: T0 + Math.floor(i / 3),
      warnings:
        i % 5 === 0
          ? [{ code: 'secret_path', severity: 'danger', message: 'a secret', where: 'path' }]
          : [],
    });
  });
  for (const req of decided) gh.core.store.recordRequest(req);
  await Promise.all(
    decided.map((req, i) => {
      const verdict = (['allow', 'deny', 'cancelled', 'always'] as const)[i % 4];
      const made = decision(req, verdict, {
        decider: DECIDERS[i % DECIDERS.length]!,
        decidedAt: req.issuedAt + 5,
      });
      return gh.core.store.recordDecision(
        verdict === 'deny' ? { ...made, message: `no: ${LIES[i % LIES.length]}` } : made,
        { latencyMs: 5, votes: [], displayed: true },
      );
    }),
  );
}, 60_000);
afterAll(async () => gh.close());

const auth = () => ({ authorization: `Bearer ${gh.token}` });
const path = (query: HistoryQuery) =>
  `/api/history?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]))}`;

/**
 * The route's answer as it was when the page crossed threads as objects: the store's page checked
 * against the contract (as the dispatcher checks every answer) and encoded with JSON.stringify.
 */
async function objectPath(query: HistoryQuery): Promise<string> {
  return JSON.stringify(HistoryPage.parse(await gh.core.store.history(query)));
}

/** Every page of `query` over HTTP, following nextCursor, each beside the old path's answer. */
async function walk(query: HistoryQuery): Promise<{ sent: string; old: string }[]> {
  const pages: { sent: string; old: string }[] = [];
  let cursor: string | null = null;
  do {
    const asked: HistoryQuery = cursor ? { ...query, cursor } : query;
    const response = await fetch(`${gh.server.url}${path(asked)}`, { headers: auth() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const sent = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(sent));
    pages.push({ sent, old: await objectPath(asked) });
    cursor = (JSON.parse(sent) as HistoryPage).nextCursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}

describe('GET /api/history, encoded on the reader thread', { timeout: 60_000 }, () => {
  it.each<[string, HistoryQuery, number]>([
    ['the first page and the pages after it', { limit: 100 }, 260],
    ['the default page', {}, 260],
    ['a filtered page', { agentId: 'claude', toolKind: 'execute', decision: 'deny' }, 22],
    ['pages with warnings', { hasWarnings: true, limit: 10 }, 52],
    ['a one-word text search', { q: 'build', limit: 50 }, 260],
    ['a short prefix search', { q: 'ste', limit: 100 }, 222],
    ['a prefix of what an agent wrote', { q: 'scr', limit: 7 }, 52],
    ['a search an agent wrote into its titles', { q: 'quoted', limit: 5 }, 52],
  ])('sends %s as the bytes the object path sent', async (_name, query, rows) => {
    const pages = await walk(query);
    for (const { sent, old } of pages) {
      expect(sent).toBe(old);
      expect(JSON.parse(sent)).toEqual(JSON.parse(old));
      expect(HistoryPage.safeParse(JSON.parse(sent)).success).toBe(true);
    }
    const items = pages.flatMap(({ sent }) => (JSON.parse(sent) as HistoryPage).items);
    expect(items).toHaveLength(rows);
    expect(new Set(items.map((item) => item.requestId)).size).toBe(rows);
  });

  it('keeps what an agent wrote exactly, and the renderer reads the same page', async () => {
    const response = await fetch(`${gh.server.url}${path({ q: 'script', limit: 100 })}`, {
      headers: auth(),
    });
    const page = HistoryPage.parse(JSON.parse(await response.text()));
    expect(page.items).toHaveLength(52);
    for (const item of page.items) {
      expect([item.title, item.commandText ?? '', ...item.paths].join('\n')).toContain(LIES[2]);
    }
    expect(page.items.map((item) => item.title)).toContain(`build ${LIES[2]}`);
    expect(await gh.api.call('history', { q: 'script', limit: 100 })).toEqual(page);
    const denied = await gh.api.call('history', { decision: 'deny', q: 'sep' });
    expect(denied.items.map((item) => item.message)).toContain(`no: ${LIES[1]}`);
  });

  it('still checks the query and the bearer token', async () => {
    const get = (query: string, headers: Record<string, string> = auth()) =>
      fetch(`${gh.server.url}/api/history?${query}`, { headers });
    for (const query of ['limit=501', 'limit=0', `q=${'a'.repeat(501)}`, 'agent=gemini']) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { name: string } }).error.name).toBe(
        'ValidationError',
      );
    }
    // A cursor is opaque: one the store cannot read is refused as the caller's, not logged as ours.
    for (const cursor of ['bm90IGEgY3Vyc29y', '%25%25%25', 'W10']) {
      const response = await get(`cursor=${cursor}`);
      expect(response.status, cursor).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { name: 'BadRequestError', message: expect.stringMatching(/cursor/) },
      });
    }
    expect((await get(`cursor=${'a'.repeat(201)}`)).status).toBe(400);
    expect((await get('limit=5', {})).status).toBe(401);
    expect((await get('limit=5', { authorization: 'Bearer nope' })).status).toBe(401);
  });
});
