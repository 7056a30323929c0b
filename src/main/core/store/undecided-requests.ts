// What a decision needs from its request (its seq, agent, session, options, the text it is found
// by). Requests recorded by this process wait here until decided, which saves a lookup per
// decision; any other request is read from the database.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** What a decision needs from its request. */
export interface RequestFacts {
  seq: number;
  agent_id: string;
  session_id: string;
  tool_kind: string;
  has_warnings: number;
  options: { optionId: string; name: string; kind: string }[];
  title: string;
  command_text: string | null;
  paths: string;
}

/** Entries of each of the writer's caches; forgetting one costs a lookup, growing forever does not. */
export const CACHE_LIMIT = 50_000;

export class UndecidedRequests {
  private readonly facts = new Map<string, RequestFacts>();
  private readonly requestFacts: Statement;
  private readonly isDecided: Statement;

  constructor(db: Db) {
    this.requestFacts = db.prepare(
      `SELECT seq, agent_id, session_id, tool_kind, has_warnings, options_json, title, command_text, paths_json
       FROM requests WHERE request_id = ?`,
    );
    this.isDecided = db.prepare('SELECT 1 FROM decisions WHERE request_id = ?').pluck();
  }

  /** A request just written; the oldest one waiting is dropped when the cache is full. */
  remember(requestId: string, facts: RequestFacts): void {
    if (this.facts.size >= CACHE_LIMIT) {
      const oldest = this.facts.keys().next();
      if (!oldest.done) this.facts.delete(oldest.value);
    }
    this.facts.set(requestId, facts);
  }

  /** The cache holds only undecided requests; anything else is read from the database. */
  lookup(requestId: string): RequestFacts | 'unknown' | 'decided' {
    const cached = this.facts.get(requestId);
    if (cached) return cached;
    const row = this.requestFacts.get(requestId) as
      | (Omit<RequestFacts, 'options' | 'paths'> & { options_json: string; paths_json: string })
      | undefined;
    if (!row) return 'unknown';
    if (this.isDecided.get(requestId)) return 'decided';
    const { options_json, paths_json, ...rest } = row;
    return {
      ...rest,
      options: JSON.parse(options_json) as RequestFacts['options'],
      paths: (JSON.parse(paths_json) as string[]).join(' '),
    };
  }

  /** The request is decided. */
  forget(requestId: string): void {
    this.facts.delete(requestId);
  }

  /** After a rolled-back batch: the cache may name requests that were never written. */
  clear(): void {
    this.facts.clear();
  }
}
