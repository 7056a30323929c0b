// The audit in commit order, for exporters: the chain entries after a cursor with the request, vote
// or decision each one holds, and the cursors themselves. Read-only apart from the cursor table.
import type { Statement } from 'better-sqlite3';
import { decodeBlob } from './blobs';
import type { Db } from './database';

export interface FeedRequest {
  requestId: string;
  agentId: string;
  agentName: string;
  sessionId: string;
  promptId: string | null;
  cwd: string;
  toolKind: string;
  title: string;
  commandText: string | null;
  paths: string[];
  warningCodes: string[];
  policy: string;
  issuedAt: number;
  /** Only when contents were asked for. */
  diffs?: { path: string; oldText: string | null; newText: string | null }[];
}

export interface FeedVote {
  clientId: string | null;
  surface: string | null;
  identityProven: boolean;
  optionId: string | null;
  outcome: string;
  at: number;
}

export interface FeedDecision {
  verdict: string;
  outcome: string;
  optionId: string | null;
  optionKind: string | null;
  deciderType: string;
  deciderRef: string | null;
  /** The decider as recorded (its surface for a person). */
  decider: Record<string, unknown>;
  reason: string;
  decidedAt: number;
  latencyMs: number;
}

interface EntryBase {
  seq: number;
  /** Store clock at commit. */
  at: number;
  /** The chain hash of this entry. */
  hash: string;
  request: FeedRequest;
}
export type FeedEntry =
  | (EntryBase & { kind: 'request' })
  | (EntryBase & { kind: 'vote'; vote: FeedVote })
  | (EntryBase & { kind: 'decision'; decision: FeedDecision });

export interface FeedPage {
  entries: FeedEntry[];
  /** The last chain entry read, whatever its kind (events and grants are passed over): the next cursor. */
  lastSeq: number;
}

interface FeedRow {
  seq: number;
  kind: string;
  at: number;
  hash: string;
  request_id: string | null;
  agent_id: string;
  agent_name: string;
  session_id: string;
  prompt_id: string | null;
  cwd: string;
  tool_kind: string;
  title: string;
  command_text: string | null;
  paths_json: string;
  warning_codes: string;
  policy: string;
  issued_at: number;
  diffs_json: string;
  v_client_id: string | null;
  v_surface: string | null;
  v_identity_proven: number;
  v_option_id: string | null;
  v_outcome: string;
  v_at: number;
  d_verdict: string;
  d_outcome: string;
  d_option_id: string | null;
  d_option_kind: string | null;
  d_decider_type: string;
  d_decider_ref: string | null;
  d_decider_json: string;
  d_reason: string;
  d_decided_at: number;
  d_latency_ms: number;
}

// Votes are found by their seq (their key), decisions by request id (unique): every row of a page is
// a primary-key or unique-index lookup.
const PAGE_SQL = `
  SELECT a.seq, a.kind, a.at, a.hash,
    r.request_id, r.agent_id, r.agent_name, r.session_id, r.prompt_id, r.cwd, r.tool_kind, r.title,
    r.command_text, r.paths_json, r.warning_codes, r.policy, r.issued_at, r.diffs_json,
    v.client_id AS v_client_id, v.surface AS v_surface, v.identity_proven AS v_identity_proven,
    v.option_id AS v_option_id, v.outcome AS v_outcome, v.at AS v_at,
    d.verdict AS d_verdict, d.outcome AS d_outcome, d.option_id AS d_option_id,
    d.option_kind AS d_option_kind, d.decider_type AS d_decider_type, d.decider_ref AS d_decider_ref,
    d.decider_json AS d_decider_json, d.reason AS d_reason, d.decided_at AS d_decided_at,
    d.latency_ms AS d_latency_ms
  FROM audit_log a
  LEFT JOIN requests r ON a.kind IN ('request', 'vote', 'decision') AND r.request_id = a.ref
  LEFT JOIN votes v ON a.kind = 'vote' AND v.seq = a.seq
  LEFT JOIN decisions d ON a.kind = 'decision' AND d.request_id = a.ref
  WHERE a.seq > ? ORDER BY a.seq LIMIT ?`;

export class AuditFeed {
  private readonly page: Statement;
  private readonly blob: Statement;
  private readonly cursorGet: Statement;
  private readonly cursorSet: Statement;

  constructor(db: Db) {
    this.page = db.prepare(PAGE_SQL);
    this.blob = db.prepare('SELECT codec, data FROM blobs WHERE hash = ?');
    this.cursorGet = db.prepare('SELECT seq FROM export_cursors WHERE name = ?').pluck();
    this.cursorSet = db.prepare(
      'INSERT INTO export_cursors (name, seq) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq',
    );
  }

  /** Up to `limit` chain entries after `afterSeq`; `contents`: with the diffs' texts. */
  read(afterSeq: number, limit: number, contents: boolean): FeedPage {
    const rows = this.page.all(afterSeq, limit) as FeedRow[];
    const entries: FeedEntry[] = [];
    for (const row of rows) {
      const entry = this.entry(row, contents);
      if (entry) entries.push(entry);
    }
    return { entries, lastSeq: rows.at(-1)?.seq ?? afterSeq };
  }

  cursor(name: string): number {
    return (this.cursorGet.get(name) as number | undefined) ?? 0;
  }

  saveCursor(name: string, seq: number): void {
    this.cursorSet.run(name, seq);
  }

  private entry(row: FeedRow, contents: boolean): FeedEntry | null {
    if (row.request_id === null) return null;
    const base = { seq: row.seq, at: row.at, hash: row.hash, request: this.request(row, contents) };
    switch (row.kind) {
      case 'request':
        return { ...base, kind: 'request' };
      case 'vote':
        return {
          ...base,
          kind: 'vote',
          vote: {
            clientId: row.v_client_id,
            surface: row.v_surface,
            identityProven: row.v_identity_proven === 1,
            optionId: row.v_option_id,
            outcome: row.v_outcome,
            at: row.v_at,
          },
        };
      case 'decision':
        return {
          ...base,
          kind: 'decision',
          decision: {
            verdict: row.d_verdict,
            outcome: row.d_outcome,
            optionId: row.d_option_id,
            optionKind: row.d_option_kind,
            deciderType: row.d_decider_type,
            deciderRef: row.d_decider_ref,
            decider: JSON.parse(row.d_decider_json) as Record<string, unknown>,
            reason: row.d_reason,
            decidedAt: row.d_decided_at,
            latencyMs: row.d_latency_ms,
          },
        };
      default:
        return null;
    }
  }

  private request(row: FeedRow, contents: boolean): FeedRequest {
    const request: FeedRequest = {
      requestId: row.request_id!,
      agentId: row.agent_id,
      agentName: row.agent_name,
      sessionId: row.session_id,
      promptId: row.prompt_id,
      cwd: row.cwd,
      toolKind: row.tool_kind,
      title: row.title,
      commandText: row.command_text,
      paths: JSON.parse(row.paths_json) as string[],
      warningCodes: JSON.parse(row.warning_codes) as string[],
      policy: row.policy,
      issuedAt: row.issued_at,
    };
    if (contents) {
      const diffs = JSON.parse(row.diffs_json) as {
        path: string;
        oldTextBlob: string | null;
        newTextBlob: string | null;
      }[];
      request.diffs = diffs.map((d) => ({
        path: d.path,
        oldText: this.text(d.oldTextBlob),
        newText: this.text(d.newTextBlob),
      }));
    }
    return request;
  }

  private text(hash: string | null): string | null {
    if (hash === null) return null;
    const blob = this.blob.get(hash) as { codec: string; data: Buffer } | undefined;
    return blob ? decodeBlob(blob.codec, blob.data) : null;
  }
}
