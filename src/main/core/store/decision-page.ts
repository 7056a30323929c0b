// A page of decided requests: newest first by decided_at then request id, keyset cursors, filters,
// full text.
//
// decisions.hid is (millisecond of decided_at << 21) + arrival counter, so the table and every index
// (which all end in the rowid) are ordered by millisecond. A page is a range scan in hid order; within
// one millisecond rows arrive in commit order, so the reader sorts each millisecond's rows by
// (decided_at, request_id) before emitting them. Rows never need more than one millisecond of lookahead.
import type { Statement } from 'better-sqlite3';
import type { AgentReply, Decider } from '../../../shared/domain';
import {
  HistoryQuery,
  type HistoryFilter,
  type HistoryItem,
  type HistoryPage,
} from '../../../shared/history';
import type { Db } from './database';
import { StoreInputError } from './errors';
import { textQuery, wordMatches } from './fts-query';
import { hidMs } from './projections';

/** A prepared statement for `sql`, cached by the caller. */
export type Prepare = (sql: string) => Statement;

export interface RawItem {
  ms: number;
  request_id: string;
  session_id: string;
  agent_id: string;
  tool_kind: string;
  decided_at: number;
  outcome: string;
  option_id: string | null;
  option_kind: string | null;
  option_name: string | null;
  decider_json: string;
  reason: string;
  title: string;
  command_text: string | null;
  paths_json: string;
  warning_codes: string;
  issued_at: number;
  message: string | null;
}

const ITEM_COLUMNS = `d.request_id, d.session_id, d.agent_id, d.tool_kind, d.decided_at, d.outcome, d.option_id,
  d.option_kind, d.option_name, d.decider_json, d.reason, r.title, r.command_text, r.paths_json,
  r.warning_codes, r.issued_at, d.message`;

/** A row of the page query in raw (array) mode: ms, then ITEM_COLUMNS in order. */
function toRaw(v: unknown[]): RawItem {
  return {
    ms: v[0] as number,
    request_id: v[1] as string,
    session_id: v[2] as string,
    agent_id: v[3] as string,
    tool_kind: v[4] as string,
    decided_at: v[5] as number,
    outcome: v[6] as string,
    option_id: v[7] as string | null,
    option_kind: v[8] as string | null,
    option_name: v[9] as string | null,
    decider_json: v[10] as string,
    reason: v[11] as string,
    title: v[12] as string,
    command_text: v[13] as string | null,
    paths_json: v[14] as string,
    warning_codes: v[15] as string,
    issued_at: v[16] as number,
    message: v[17] as string | null,
  };
}

interface Cursor {
  decidedAt: number;
  requestId: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.decidedAt, c.requestId]), 'utf8').toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'number' &&
      Number.isFinite(value[0]) &&
      typeof value[1] === 'string'
    ) {
      return { decidedAt: value[0], requestId: value[1] };
    }
  } catch {
    // fall through
  }
  throw new StoreInputError('Invalid history cursor: pass back the nextCursor of a previous page.');
}

/**
 * The index whose columns the filter pins down, most selective first: an equality on all of an index's
 * columns yields rows in hid order, so the page is read in order and stops early. Other filters are
 * checked row by row. Forced with INDEXED BY so the plan does not depend on statistics.
 */
function drivingIndex(f: HistoryFilter): string | null {
  if (f.sessionId !== undefined) return 'decisions_by_session';
  if (f.agentId !== undefined && f.toolKind !== undefined && f.decision !== undefined) {
    return 'decisions_by_agent_kind_verdict';
  }
  if (f.hasWarnings === true) {
    // Rows with warnings are few: a partial index pairs them with the most selective other column.
    if (f.decider !== undefined) return 'decisions_with_warnings_by_decider';
    if (f.agentId !== undefined) return 'decisions_with_warnings_by_agent';
    if (f.toolKind !== undefined) return 'decisions_with_warnings_by_kind';
    if (f.decision !== undefined) return 'decisions_with_warnings_by_verdict';
    return 'decisions_with_warnings';
  }
  if (f.agentId !== undefined) return 'decisions_by_agent';
  if (f.decider !== undefined) return 'decisions_by_decider';
  if (f.toolKind !== undefined) return 'decisions_by_kind';
  if (f.decision !== undefined) return 'decisions_by_verdict';
  if (f.hasWarnings === false) return 'decisions_by_warnings';
  return null;
}

function compareDesc(a: RawItem, b: RawItem): number {
  if (a.decided_at !== b.decided_at) return b.decided_at - a.decided_at;
  return a.request_id < b.request_id ? 1 : a.request_id > b.request_id ? -1 : 0;
}

export function toItem(raw: RawItem): HistoryItem {
  const reply: AgentReply =
    raw.outcome === 'selected'
      ? { outcome: 'selected', optionId: raw.option_id ?? '', optionKind: raw.option_kind as never }
      : { outcome: 'cancelled' };
  return {
    requestId: raw.request_id,
    sessionId: raw.session_id,
    agentId: raw.agent_id,
    toolKind: raw.tool_kind as HistoryItem['toolKind'],
    title: raw.title,
    commandText: raw.command_text,
    paths: JSON.parse(raw.paths_json) as string[],
    warningCodes: JSON.parse(raw.warning_codes) as HistoryItem['warningCodes'],
    issuedAt: raw.issued_at,
    decidedAt: raw.decided_at,
    reply,
    optionName: raw.option_name,
    decider: JSON.parse(raw.decider_json) as Decider,
    reason: raw.reason,
    ...(raw.message ? { message: raw.message } : {}),
  };
}

/** The page query, or null when the filter and cursor leave no time range to read. */
function buildQuery(
  filter: HistoryFilter,
  cursor: Cursor | null,
): { sql: string; params: Record<string, unknown>; checks: string[][] } | null {
  const params: Record<string, unknown> = {};
  const where: string[] = [];
  const add = (clause: string, name?: string, value?: unknown) => {
    where.push(clause);
    if (name !== undefined) params[name] = value;
  };
  if (filter.agentId !== undefined) add('d.agent_id = @agentId', 'agentId', filter.agentId);
  if (filter.sessionId !== undefined)
    add('d.session_id = @sessionId', 'sessionId', filter.sessionId);
  if (filter.toolKind !== undefined) add('d.tool_kind = @toolKind', 'toolKind', filter.toolKind);
  if (filter.decision !== undefined) add('d.verdict = @verdict', 'verdict', filter.decision);
  if (filter.decider !== undefined) add('d.decider_type = @decider', 'decider', filter.decider);
  // A literal, not a parameter: the partial index on has_warnings = 1 is only usable that way.
  if (filter.hasWarnings !== undefined)
    where.push(`d.has_warnings = ${filter.hasWarnings ? 1 : 0}`);
  if (filter.from !== undefined) add('d.decided_at >= @from', 'from', filter.from);
  if (filter.to !== undefined) add('d.decided_at < @to', 'to', filter.to);
  if (cursor) {
    add('(d.decided_at < @cursorAt OR (d.decided_at = @cursorAt AND d.request_id < @cursorId))');
    params.cursorAt = cursor.decidedAt;
    params.cursorId = cursor.requestId;
  }
  // The hid range that can hold rows before the cursor and inside [from, to).
  let maxMs = Infinity;
  if (cursor) maxMs = Math.min(maxMs, hidMs(cursor.decidedAt));
  if (filter.to !== undefined) maxMs = Math.min(maxMs, hidMs(filter.to));
  const minMs = filter.from !== undefined ? hidMs(filter.from) : 0;
  if (maxMs < minMs) return null;

  const text = filter.q !== undefined ? textQuery(filter.q) : null;
  const key = text !== null ? 'f.rowid' : 'd.hid';
  if (Number.isFinite(maxMs)) add(`${key} < ((@maxMs + 1) << 21)`, 'maxMs', maxMs);
  if (minMs > 0) add(`${key} >= (@minMs << 21)`, 'minMs', minMs);

  let from: string;
  if (text !== null) {
    where.unshift('history_fts MATCH @q');
    params.q = text.match;
    // CROSS JOIN fixes the loop order: full-text matches in rowid (= hid) order drive the scan. NOT
    // INDEXED keeps each match's decision a rowid lookup: given the chance, SQLite walked a filter
    // index over the whole hid range for every match.
    from = `history_fts f CROSS JOIN decisions d NOT INDEXED ON d.hid = f.rowid CROSS JOIN requests r ON r.seq = d.request_seq`;
  } else {
    const index = drivingIndex(filter);
    from = `decisions d ${index ? `INDEXED BY ${index}` : 'NOT INDEXED'} CROSS JOIN requests r ON r.seq = d.request_seq`;
  }
  const sql = `SELECT ${key} >> 21 AS ms, ${ITEM_COLUMNS} FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${key} DESC`;
  return { sql, params, checks: text?.checks ?? [] };
}

function parseQuery(query: HistoryQuery): {
  filter: HistoryFilter;
  limit: number;
  cursor: Cursor | null;
} {
  const parsed = HistoryQuery.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StoreInputError(
      `Invalid history query${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message}`,
    );
  }
  const { cursor, limit, ...filter } = parsed.data;
  return { filter, limit, cursor: cursor !== undefined ? decodeCursor(cursor) : null };
}

/** One page of decided requests, newest first. */
export function readPage(prepare: Prepare, query: HistoryQuery): HistoryPage {
  const { filter, limit, cursor } = parseQuery(query);
  const built = buildQuery(filter, cursor);
  if (!built) return { items: [], nextCursor: null };
  const { checks } = built;
  const out: RawItem[] = [];
  let pending: RawItem[] = [];
  let currentMs = Infinity;
  // Rows still to come all have decided_at < bound; pending rows at or above it are final.
  const release = (bound: number) => {
    if (pending.length === 0) return;
    if (pending.length === 1) {
      if (pending[0]!.decided_at >= bound) out.push(pending.pop()!);
      return;
    }
    const ready = pending.filter((r) => r.decided_at >= bound).sort(compareDesc);
    pending = pending.filter((r) => r.decided_at < bound);
    for (const r of ready) out.push(r);
  };
  // One streamed scan (raw arrays are cheaper than row objects); leaving the loop early resets it.
  for (const values of prepare(built.sql).raw(true).iterate(built.params) as IterableIterator<
    unknown[]
  >) {
    const raw = toRaw(values);
    if (
      checks.length > 0 &&
      !wordMatches(
        [raw.title, raw.command_text ?? '', (JSON.parse(raw.paths_json) as string[]).join(' ')],
        checks,
      )
    ) {
      continue;
    }
    if (raw.ms < currentMs) {
      release(raw.ms + 1);
      currentMs = raw.ms;
      if (out.length > limit) break;
    }
    pending.push(raw);
  }
  if (out.length <= limit) release(-Infinity);
  const items = out.slice(0, limit).map(toItem);
  const lastItem = out[limit - 1];
  return {
    items,
    nextCursor:
      out.length > limit && lastItem
        ? encodeCursor({ decidedAt: lastItem.decided_at, requestId: lastItem.request_id })
        : null,
  };
}

/** EXPLAIN QUERY PLAN of a page query, for tests that pin the plans. */
export function explainPage(db: Db, query: HistoryQuery): string[] {
  const { filter, cursor } = parseQuery(query);
  const built = buildQuery(filter, cursor);
  if (!built) return [];
  return (
    db.prepare(`EXPLAIN QUERY PLAN ${built.sql}`).all(built.params) as { detail: string }[]
  ).map((r) => r.detail);
}
