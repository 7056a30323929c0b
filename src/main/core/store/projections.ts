// The history tables are projections of the audit chain. This file is the one place that says which
// columns of each table an audit entry covers, so the writer (which hashes the row it inserts) and the
// verifier (which re-reads the row and hashes it again) cannot drift apart.
import type {
  DecisionRow,
  EventRow,
  GrantRevokeRow,
  GrantRow,
  RequestRow,
  SqlValue,
  VoteRow,
} from './records';

export type AuditKind = 'request' | 'vote' | 'decision' | 'event' | 'grant' | 'grant_revoke';

/** A column list that names every key of T, checked at compile time. */
type AllKeys<T, K extends readonly (keyof T)[]> =
  Exclude<keyof T, K[number]> extends never ? K : never;
function columns<T>() {
  return <const K extends readonly (keyof T & string)[]>(keys: AllKeys<T, K>): K => keys;
}

export const CONTENT_COLUMNS = {
  request: columns<RequestRow>()([
    'request_id',
    'agent_id',
    'agent_name',
    'session_id',
    'prompt_id',
    'cwd',
    'tool_call_id',
    'tool_kind',
    'title',
    'tool_call_json',
    'paths_json',
    'command_text',
    'command_json',
    'options_json',
    'warnings_json',
    'warning_codes',
    'has_warnings',
    'diffs_json',
    'policy',
    'issued_at',
    'expires_at',
  ]),
  vote: columns<VoteRow>()([
    'request_id',
    'client_id',
    'surface',
    'identity_proven',
    'option_id',
    'outcome',
    'at',
  ]),
  decision: columns<DecisionRow>()([
    'request_id',
    'agent_id',
    'session_id',
    'tool_kind',
    'has_warnings',
    'verdict',
    'outcome',
    'option_id',
    'option_kind',
    'option_name',
    'decider_type',
    'decider_ref',
    'decider_json',
    'reason',
    'decided_at',
    'latency_ms',
    'displayed',
    'message',
  ]),
  event: columns<EventRow>()([
    'type',
    'at',
    'agent_id',
    'session_id',
    'request_id',
    'payload_json',
  ]),
  grant: columns<GrantRow>()([
    'grant_id',
    'agent_id',
    'scope',
    'session_id',
    'project_root',
    'grant_json',
    'created_at',
    'expires_at',
  ]),
  grant_revoke: columns<GrantRevokeRow>()(['grant_id', 'revoked_at', 'revoke_reason']),
} as const;

/**
 * Columns added after entries of their table were first chained: an entry holds them only when they
 * have a value, so an entry written before the column existed hashes the same when verified.
 */
const HASHED_WHEN_SET: ReadonlySet<string> = new Set(['message']);

export const TABLE_OF: Record<AuditKind, string> = {
  request: 'requests',
  vote: 'votes',
  decision: 'decisions',
  event: 'events',
  grant: 'grants',
  grant_revoke: 'grants',
};

type EntryWriter = (seq: number, kind: string, ref: string, at: number, row: object) => string;

/**
 * One writer per kind, generated once from CONTENT_COLUMNS: an object literal with the keys already in
 * canonical (sorted) order, written by a single JSON.stringify call. An object literal of fixed shape
 * is several times faster to build and stringify than one grown key by key. The column names are our
 * own constants (quoted with JSON.stringify), never data. No key is integer-like, so JSON.stringify
 * keeps the literal's order.
 */
const ENTRY_WRITERS = Object.fromEntries(
  Object.entries(CONTENT_COLUMNS).map(([kind, cols]) => {
    const members = [...cols]
      .sort()
      // JSON.stringify leaves out a member whose value is undefined.
      .map(
        (c) =>
          `${JSON.stringify(c)}: r[${JSON.stringify(c)}] ?? ${HASHED_WHEN_SET.has(c) ? 'undefined' : 'null'}`,
      )
      .join(', ');
    const body = `return JSON.stringify({ at, kind, ref, row: { ${members} }, seq });`;
    return [kind, new Function('seq', 'kind', 'ref', 'at', 'r', body) as EntryWriter];
  }),
) as Record<AuditKind, EntryWriter>;

/**
 * canonicalJson({ seq, kind, ref, at, row: rowContent(kind, row) }) without sorting keys per call:
 * this runs for every audited row inside the commit. Tested equal to the generic one.
 */
export function canonicalEntry(
  seq: number,
  kind: AuditKind,
  ref: string,
  at: number,
  row: object,
): string {
  return ENTRY_WRITERS[kind](seq, kind, ref, at, row);
}

/** Bind values for insertSql(table, ['seq', ...CONTENT_COLUMNS[kind]]). */
export function insertValues(kind: AuditKind, seq: number, row: object): SqlValue[] {
  const source = row as Record<string, SqlValue | undefined>;
  const values: SqlValue[] = [seq];
  for (const column of CONTENT_COLUMNS[kind]) values.push(source[column] ?? null);
  return values;
}

/** The content object an audit entry hashes: exactly the listed columns, in a fixed order. */
export function rowContent(kind: AuditKind, row: object): Record<string, SqlValue> {
  const source = row as Record<string, SqlValue>;
  const out: Record<string, SqlValue> = {};
  for (const column of CONTENT_COLUMNS[kind]) {
    const value = source[column] ?? null;
    if (value !== null || !HASHED_WHEN_SET.has(column)) out[column] = value;
  }
  return out;
}

/** Positional: better-sqlite3 binds an array faster than an object of named parameters. */
export function insertSql(table: string, names: readonly string[]): string {
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
}

const list = (kind: AuditKind) => CONTENT_COLUMNS[kind].join(', ');

/**
 * How the verifier finds the projection row of an entry. Votes and events are keyed by their seq; the
 * others by their natural id (ref), and then must carry the entry's seq.
 */
export const LOOKUP_SQL: Record<AuditKind, string> = {
  request: `SELECT seq, ${list('request')} FROM requests WHERE request_id = @ref`,
  vote: `SELECT seq, ${list('vote')} FROM votes WHERE seq = @seq`,
  decision: `SELECT seq, hid >> 21 AS hid_ms,
      (SELECT r.request_id FROM requests r WHERE r.seq = decisions.request_seq) AS linked_request,
      ${list('decision')} FROM decisions WHERE request_id = @ref`,
  event: `SELECT seq, ${list('event')} FROM events WHERE seq = @seq`,
  grant: `SELECT seq, ${list('grant')} FROM grants WHERE grant_id = @ref`,
  grant_revoke: `SELECT revoked_seq AS seq, ${list('grant_revoke')} FROM grants WHERE grant_id = @ref`,
};

/** Rows per table that must each have exactly one entry of the kind. */
export const COUNT_SQL: Record<AuditKind, string> = {
  request: 'SELECT count(*) FROM requests',
  vote: 'SELECT count(*) FROM votes',
  decision: 'SELECT count(*) FROM decisions',
  event: 'SELECT count(*) FROM events',
  grant: 'SELECT count(*) FROM grants',
  grant_revoke: 'SELECT count(*) FROM grants WHERE revoked_seq IS NOT NULL',
};

/** The history key's millisecond for a decided_at, as the CHECK constraint on decisions computes it. */
export function hidMs(decidedAt: number): number {
  return Math.max(0, Math.trunc(decidedAt));
}
