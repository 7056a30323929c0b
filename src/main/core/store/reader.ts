// The read side of the store: pages and details of decided requests, audited events, the agents and
// sessions seen. Statements are prepared once and reused.
import type { Statement } from 'better-sqlite3';
import type { HistoryDetail, HistoryPage, HistoryQuery } from '../../../shared/history';
import type { Db } from './database';
import { readDetail } from './decision-detail';
import { explainPage, readPage } from './decision-page';
import type { EventRow } from './records';

export interface EventRecord {
  seq: number;
  type: string;
  at: number;
  agentId: string | null;
  sessionId: string | null;
  requestId: string | null;
  payload: unknown;
}

export interface EventQuery {
  type?: string;
  agentId?: string;
  sessionId?: string;
  requestId?: string;
  /** Keyset cursor: only events older than this seq (pass the last seq of the previous page). */
  beforeSeq?: number;
  /** Default 100, at most 1000. */
  limit?: number;
}

export interface AgentEntry {
  agentId: string;
  name: string;
  firstSeen: number;
}
export interface SessionEntry {
  agentId: string;
  sessionId: string;
  cwd: string;
  openedAt: number;
  closedAt: number | null;
}

export class Reader {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  private readonly stmt = (sql: string): Statement => {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  };

  page(query: HistoryQuery): HistoryPage {
    return readPage(this.stmt, query);
  }

  explain(query: HistoryQuery): string[] {
    return explainPage(this.db, query);
  }

  detail(requestId: string): HistoryDetail | null {
    return readDetail(this.stmt, requestId);
  }

  /** Audited events, newest first. */
  events(query: EventQuery): EventRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {
      limit: Math.min(Math.max(1, Math.floor(query.limit ?? 100)), 1000),
    };
    for (const [key, column] of [
      ['type', 'type'],
      ['agentId', 'agent_id'],
      ['sessionId', 'session_id'],
      ['requestId', 'request_id'],
    ] as const) {
      if (query[key] !== undefined) {
        where.push(`${column} = @${key}`);
        params[key] = query[key];
      }
    }
    if (query.beforeSeq !== undefined) {
      where.push('seq < @beforeSeq');
      params.beforeSeq = query.beforeSeq;
    }
    const sql = `SELECT seq, type, at, agent_id, session_id, request_id, payload_json FROM events
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`;
    return (this.stmt(sql).all(params) as (EventRow & { seq: number })[]).map((e) => ({
      seq: e.seq,
      type: e.type,
      at: e.at,
      agentId: e.agent_id,
      sessionId: e.session_id,
      requestId: e.request_id,
      payload: JSON.parse(e.payload_json),
    }));
  }

  agents(): AgentEntry[] {
    return this.stmt(
      'SELECT agent_id AS agentId, name, first_seen AS firstSeen FROM agents ORDER BY agent_id',
    ).all() as AgentEntry[];
  }

  sessions(agentId?: string): SessionEntry[] {
    const sql = `SELECT agent_id AS agentId, session_id AS sessionId, cwd, opened_at AS openedAt, closed_at AS closedAt
      FROM sessions ${agentId !== undefined ? 'WHERE agent_id = ?' : ''} ORDER BY opened_at DESC`;
    return (
      agentId !== undefined ? this.stmt(sql).all(agentId) : this.stmt(sql).all()
    ) as SessionEntry[];
  }
}
