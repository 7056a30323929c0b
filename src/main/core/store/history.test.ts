import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decider, PendingApproval, ToolKind } from '../../../shared/domain';
import { HistoryPage, type HistoryFilter, type HistoryItem } from '../../../shared/history';
import { StoreInputError, type StoreEngine } from '.';
import { decision, request, tempStore, type RequestSpec } from '../../../../test/support/store';

interface Expected {
  req: PendingApproval;
  verdict: 'allow' | 'deny' | 'cancelled';
  decider: Decider;
  decidedAt: number;
}

const T0 = 1_750_000_000_000;
const KINDS: ToolKind[] = ['edit', 'execute', 'read', 'delete'];
const DECIDERS: Decider[] = [
  { type: 'person', clientId: 'desktop', surface: 'dialog' },
  { type: 'rule', ruleId: 'allow-reads' },
  { type: 'timeout' },
  { type: 'mode', mode: 'acceptEdits' },
];
const WORDS = ['deploy', 'build', 'lint', 'migrate', 'render', 'cleanup'];

let store: StoreEngine;
let cleanup: () => Promise<void>;
const rows: Expected[] = [];

function sortKey(a: Expected, b: Expected): number {
  if (a.decidedAt !== b.decidedAt) return b.decidedAt - a.decidedAt;
  return a.req.requestId < b.req.requestId ? 1 : -1;
}

function matches(e: Expected, f: HistoryFilter): boolean {
  if (f.agentId !== undefined && e.req.agentId !== f.agentId) return false;
  if (f.sessionId !== undefined && e.req.sessionId !== f.sessionId) return false;
  if (f.toolKind !== undefined && e.req.toolCall.kind !== f.toolKind) return false;
  if (f.decision !== undefined && e.verdict !== f.decision) return false;
  if (f.decider !== undefined && e.decider.type !== f.decider) return false;
  if (f.hasWarnings !== undefined && e.req.warnings.length > 0 !== f.hasWarnings) return false;
  if (f.from !== undefined && e.decidedAt < f.from) return false;
  if (f.to !== undefined && e.decidedAt >= f.to) return false;
  return true;
}

function expected(f: HistoryFilter): string[] {
  return rows
    .filter((e) => matches(e, f))
    .sort(sortKey)
    .map((e) => e.req.requestId);
}

function allPages(filter: HistoryFilter, limit: number): HistoryItem[] {
  const out: HistoryItem[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = store.history({ ...filter, limit, ...(cursor ? { cursor } : {}) });
    expect(HistoryPage.safeParse(page).success).toBe(true);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    out.push(...page.items);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error('pagination does not end');
}

beforeAll(async () => {
  ({ store, cleanup } = tempStore());
  // 240 decisions: ties on decidedAt, fractional times, and decisions committed out of time order.
  for (let i = 0; i < 240; i++) {
    const kind = KINDS[i % 4]!;
    const word = WORDS[i % WORDS.length]!;
    const spec: RequestSpec = {
      agentId: i % 3 === 0 ? 'claude' : 'gemini',
      sessionId: `s${i % 5}`,
      kind,
      title: kind === 'execute' ? `Run ${word} script` : `Update ${word}.ts`,
      command: kind === 'execute' ? `npm run ${word} -- --target=prod${i}` : null,
      paths: kind === 'execute' ? [] : [`src/${word}/module${i}.ts`],
      issuedAt: T0 + i * 1000,
      warnings:
        i % 11 === 0
          ? [
              {
                code: 'secret_path',
                severity: 'danger',
                message: 'Touches a secret',
                where: 'path',
              },
            ]
          : [],
    };
    const req = request(spec);
    const verdict = i % 7 === 0 ? 'cancelled' : i % 3 === 1 ? 'deny' : 'allow';
    const decider = DECIDERS[i % 4]!;
    // Groups of 4 share one millisecond; every 10th is fractional; every 13th lands 50 s in the past.
    let decidedAt = T0 + Math.floor(i / 4) * 997 + 5000;
    if (i % 10 === 9) decidedAt += 0.25;
    if (i % 13 === 12) decidedAt -= 50_000;
    rows.push({ req, verdict, decider, decidedAt });
    store.recordRequest(req);
    await store.recordDecision(
      decision(req, verdict === 'allow' ? 'allow' : verdict === 'deny' ? 'deny' : 'cancelled', {
        decidedAt,
        decider,
      }),
      {
        latencyMs: decidedAt - req.issuedAt,
      },
    );
  }
  // The last decisions' full-text rows wait up to TEXT_DELAY_MS for company; a flush writes them.
  await store.flush();
});
afterAll(async () => cleanup());

describe('history pages', () => {
  it('lists newest first by decidedAt then request id', () => {
    const page = store.history({ limit: 500 });
    expect(page.items.map((i) => i.requestId)).toEqual(expected({}));
    expect(page.nextCursor).toBeNull();
    expect(store.history({}).items).toHaveLength(100); // default limit
  });

  it('returns items of the shared HistoryItem shape with the decision and decider', () => {
    const item = store.history({ limit: 1, decider: 'rule' }).items[0]!;
    const row = rows.find((r) => r.req.requestId === item.requestId)!;
    expect(item).toMatchObject({
      agentId: row.req.agentId,
      sessionId: row.req.sessionId,
      toolKind: row.req.toolCall.kind,
      title: row.req.toolCall.title,
      issuedAt: row.req.issuedAt,
      decidedAt: row.decidedAt,
      decider: { type: 'rule', ruleId: 'allow-reads' },
      reason: 'first-responder',
    });
    if (item.reply.outcome === 'selected') expect(item.optionName).toMatch(/Allow once|Deny/);
  });

  it('paginates across pages without duplicates or gaps, for several page sizes', () => {
    for (const limit of [1, 7, 50, 239]) {
      const ids = allPages({}, limit).map((i) => i.requestId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected({}));
    }
  });

  const filters: [string, HistoryFilter][] = [
    ['agentId', { agentId: 'claude' }],
    ['sessionId', { sessionId: 's3' }],
    ['toolKind', { toolKind: 'execute' }],
    ['decision allow', { decision: 'allow' }],
    ['decision deny', { decision: 'deny' }],
    ['decision cancelled', { decision: 'cancelled' }],
    ['decider', { decider: 'timeout' }],
    ['hasWarnings true', { hasWarnings: true }],
    ['hasWarnings false', { hasWarnings: false }],
    ['from/to', { from: T0 + 20_000, to: T0 + 40_000 }],
    ['from/to at a millisecond boundary', { from: T0 + 6994, to: T0 + 10_982 }],
    ['agent + kind + decision', { agentId: 'gemini', toolKind: 'edit', decision: 'allow' }],
    ['session + decider + warnings', { sessionId: 's0', decider: 'person', hasWarnings: false }],
    ['agent + decider + to', { agentId: 'gemini', decider: 'mode', to: T0 + 100_000 }],
    ['nothing matches', { agentId: 'nobody' }],
  ];
  for (const [name, filter] of filters) {
    it(`filters by ${name} (all pages)`, () => {
      expect(allPages(filter, 9).map((i) => i.requestId)).toEqual(expected(filter));
    });
  }

  it('accepts the string forms the HTTP layer passes through (coerced by HistoryQuery)', () => {
    const page = store.history({
      hasWarnings: 'true' as unknown as boolean,
      from: String(T0) as unknown as number,
      limit: '500' as unknown as number,
    });
    expect(page.items.map((i) => i.requestId)).toEqual(expected({ hasWarnings: true, from: T0 }));
  });

  it('keeps pagination stable while newer decisions are committed between pages', async () => {
    const first = store.history({ limit: 20 });
    const extra = request({ command: 'late arrival', issuedAt: T0 + 10_000_000 });
    store.recordRequest(extra);
    await store.recordDecision(decision(extra, 'allow', { decidedAt: T0 + 10_000_500 }), {
      latencyMs: 500,
    });
    const rest = allPages({}, 20);
    const second = store.history({ limit: 500, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((i) => i.requestId)).toEqual(expected({}));
    expect(rest[0]!.requestId).toBe(extra.requestId);
    rows.push({
      req: extra,
      verdict: 'allow',
      decider: { type: 'person', clientId: 'desktop', surface: 'dialog' },
      decidedAt: T0 + 10_000_500,
    });
  });

  it('uses an index in history order for every filter combination (no sort step)', () => {
    const keys: (keyof HistoryFilter)[] = [
      'agentId',
      'sessionId',
      'toolKind',
      'decision',
      'decider',
      'hasWarnings',
      'from',
    ];
    const values: HistoryFilter = {
      agentId: 'gemini',
      sessionId: 's1',
      toolKind: 'edit',
      decision: 'deny',
      decider: 'rule',
      hasWarnings: true,
      from: T0,
    };
    for (let mask = 0; mask < 1 << keys.length; mask++) {
      const filter: Record<string, unknown> = {};
      keys.forEach((k, bit) => {
        if (mask & (1 << bit)) filter[k] = values[k];
      });
      for (const q of [undefined, 'deploy']) {
        const plan = store.explainHistory({ ...filter, ...(q ? { q } : {}) }).join(' | ');
        expect(plan, JSON.stringify(filter)).not.toMatch(/TEMP B-TREE/);
        // An equality filter is answered by an index, not by reading every decision.
        if (Object.keys(filter).some((k) => k !== 'from' && !(k === 'hasWarnings'))) {
          expect(plan, JSON.stringify(filter)).toMatch(
            q ? /SCAN f VIRTUAL TABLE/ : /SEARCH d USING INDEX/,
          );
        }
      }
    }
  });

  it('rejects a forged cursor and a bad query with StoreInputError', () => {
    expect(() => store.history({ cursor: 'bm90IGEgY3Vyc29y' })).toThrow(StoreInputError);
    expect(() => store.history({ cursor: '%%%' })).toThrow(StoreInputError);
    expect(() => store.history({ limit: 0 })).toThrow(StoreInputError);
    expect(() => store.history({ decision: 'maybe' as never })).toThrow(StoreInputError);
  });
});

describe('full-text search', () => {
  const ids = (q: string, filter: HistoryFilter = {}) =>
    allPages({ ...filter, q }, 25).map((i) => i.requestId);
  const byText = (pred: (r: Expected) => boolean, filter: HistoryFilter = {}) =>
    rows
      .filter((r) => pred(r) && matches(r, filter))
      .sort(sortKey)
      .map((r) => r.req.requestId);
  const text = (r: Expected) =>
    [
      r.req.toolCall.title,
      r.req.command?.command ?? '',
      ...r.req.toolCall.locations.map((l) => l.path),
    ]
      .join(' ')
      .toLowerCase();

  it('matches words in titles, commands and paths, as prefixes, all words required', () => {
    expect(ids('deploy')).toEqual(byText((r) => text(r).includes('deploy')));
    expect(ids('depl')).toEqual(ids('deploy'));
    expect(ids('DEPLOY prod1')).toEqual(
      byText((r) => text(r).includes('deploy') && /prod1\d*/.test(text(r))),
    );
    // Inside one word, tokens form a phrase and only the last one is a prefix.
    expect(ids('module12.ts')).toEqual(byText((r) => /module12\.ts/.test(text(r))));
    expect(ids('module12')).toEqual(byText((r) => /module12\d*\.ts/.test(text(r))));
    expect(ids('src/lint')).toEqual(byText((r) => text(r).includes('src/lint')));
  });

  it('combines text with filters and paginates in history order', () => {
    const filter: HistoryFilter = { agentId: 'gemini', decision: 'deny' };
    expect(ids('run', filter)).toEqual(byText((r) => /\brun\b/.test(text(r)), filter));
    expect(ids('update', { from: T0 + 30_000, to: T0 + 150_000 })).toEqual(
      byText((r) => text(r).includes('update'), { from: T0 + 30_000, to: T0 + 150_000 }),
    );
  });

  it('treats hostile input as text, never as FTS syntax', () => {
    const hostile = [
      '"',
      '""',
      '"deploy',
      'deploy"',
      '*',
      'deploy*',
      '* OR 1',
      'NEAR(',
      'NEAR(deploy build, 2)',
      'OR',
      'deploy OR build',
      'NOT deploy',
      'deploy AND',
      '(',
      ')',
      '^deploy',
      'title:deploy',
      '-deploy',
      '{title}: x',
      "'; DROP TABLE decisions; --",
      '\u0000',
      '\u202edeploy',
      'dé',
      '🚀',
      '部署',
      '   ',
      '\\',
    ];
    for (const q of hostile) {
      expect(() => store.history({ q }), q).not.toThrow();
    }
    expect(ids('deploy OR build')).toEqual([]); // "or" is a word to match, not an operator
    expect(ids('title:deploy')).toEqual([]); // a phrase "title deploy", nothing has it
    expect(ids('"deploy')).toEqual(ids('deploy'));
    expect(ids('*')).toEqual(expected({})); // nothing searchable: the text filter is ignored
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), (q) => {
        expect(HistoryPage.safeParse(store.history({ q, limit: 5 })).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
