// Schema migrations on PRAGMA user_version. Steps are append-only: never edit a released step, add one.
// All pending steps run in one transaction, so a database is always at exactly one version.
import type { Db } from './database';
import { DatabaseTooNewError } from './errors';

export interface Migration {
  version: number;
  description: string;
  up: (db: Db) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'core tables: audit chain, requests, votes, decisions, events, grants, blobs',
    up: (db) =>
      db.exec(`
        -- The tamper-evident chain. Every audited row (request, vote, decision, event, grant change) has
        -- exactly one entry, in commit order. hash = sha256(prev_hash "\\n" canonical JSON of
        -- {seq, kind, ref, at, row}) where row is the projection row's content columns.
        CREATE TABLE audit_log (
          seq       INTEGER PRIMARY KEY,
          kind      TEXT    NOT NULL,
          ref       TEXT    NOT NULL,
          at        INTEGER NOT NULL,
          prev_hash TEXT    NOT NULL,
          hash      TEXT    NOT NULL
        );

        -- 'head' is the signed last entry (detects rows cut from the end); 'checkpoint' is the signed
        -- last pruned entry (the remaining chain starts from it).
        CREATE TABLE chain_anchor (
          name        TEXT PRIMARY KEY CHECK (name IN ('head', 'checkpoint')),
          seq         INTEGER NOT NULL,
          hash        TEXT    NOT NULL,
          at          INTEGER NOT NULL,
          pruned_rows INTEGER NOT NULL DEFAULT 0,
          mac         TEXT    NOT NULL
        );

        -- Directory tables for filter lists; not audited (the audited request row carries the same facts).
        CREATE TABLE agents (
          agent_id   TEXT PRIMARY KEY,
          name       TEXT    NOT NULL,
          first_seen INTEGER NOT NULL
        );
        CREATE TABLE sessions (
          agent_id   TEXT    NOT NULL,
          session_id TEXT    NOT NULL,
          cwd        TEXT    NOT NULL,
          opened_at  INTEGER NOT NULL,
          closed_at  INTEGER,
          PRIMARY KEY (agent_id, session_id)
        ) WITHOUT ROWID;

        -- Keyed by its audit seq so that history pages join decisions to requests by rowid.
        CREATE TABLE requests (
          seq            INTEGER PRIMARY KEY,
          request_id     TEXT    NOT NULL UNIQUE,
          agent_id       TEXT    NOT NULL,
          agent_name     TEXT    NOT NULL,
          session_id     TEXT    NOT NULL,
          prompt_id      TEXT,
          cwd            TEXT    NOT NULL,
          tool_call_id   TEXT    NOT NULL,
          tool_kind      TEXT    NOT NULL,
          title          TEXT    NOT NULL,
          tool_call_json TEXT    NOT NULL, -- ToolCallSnapshot; strings > 1 KiB replaced by blob refs
          paths_json     TEXT    NOT NULL,
          command_text   TEXT,
          command_json   TEXT,
          options_json   TEXT    NOT NULL,
          warnings_json  TEXT    NOT NULL,
          warning_codes  TEXT    NOT NULL,
          has_warnings   INTEGER NOT NULL,
          diffs_json     TEXT    NOT NULL, -- PreparedDiff[] with texts replaced by blob refs
          policy         TEXT    NOT NULL,
          issued_at      INTEGER NOT NULL,
          expires_at     INTEGER NOT NULL
        );

        CREATE TABLE votes (
          seq             INTEGER PRIMARY KEY,
          request_id      TEXT    NOT NULL REFERENCES requests (request_id),
          client_id       TEXT,
          surface         TEXT,
          identity_proven INTEGER NOT NULL,
          option_id       TEXT,
          outcome         TEXT    NOT NULL,
          at              INTEGER NOT NULL
        );
        CREATE INDEX votes_by_request ON votes (request_id);

        -- hid = (max(0, floor(decided_at)) << 21) + arrival counter within that millisecond: the table
        -- (and every index, which ends in the rowid) is stored in history order, millisecond by
        -- millisecond, so newest-first pages are ordered range scans. Filter columns are copied from
        -- the request so that one index answers a filtered page without a join.
        CREATE TABLE decisions (
          hid          INTEGER PRIMARY KEY,
          request_id   TEXT    NOT NULL UNIQUE REFERENCES requests (request_id),
          request_seq  INTEGER NOT NULL, -- rowid of the request (checked by verifyChain)
          seq          INTEGER NOT NULL,
          agent_id     TEXT    NOT NULL,
          session_id   TEXT    NOT NULL,
          tool_kind    TEXT    NOT NULL,
          has_warnings INTEGER NOT NULL,
          verdict      TEXT    NOT NULL CHECK (verdict IN ('allow', 'deny', 'cancelled')),
          outcome      TEXT    NOT NULL,
          option_id    TEXT,
          option_kind  TEXT,
          option_name  TEXT,
          decider_type TEXT    NOT NULL,
          decider_ref  TEXT,
          decider_json TEXT    NOT NULL,
          reason       TEXT    NOT NULL,
          decided_at   INTEGER NOT NULL,
          latency_ms   REAL    NOT NULL,
          displayed    INTEGER NOT NULL, -- a client showed the request to a person before it was decided
          CHECK ((hid >> 21) = max(0, CAST(decided_at AS INTEGER)))
        );

        CREATE TABLE events (
          seq        INTEGER PRIMARY KEY,
          type       TEXT    NOT NULL,
          at         INTEGER NOT NULL,
          agent_id   TEXT,
          session_id TEXT,
          request_id TEXT,
          payload_json TEXT  NOT NULL
        );
        CREATE INDEX events_by_request ON events (request_id) WHERE request_id IS NOT NULL;

        CREATE TABLE grants (
          grant_id      TEXT PRIMARY KEY,
          seq           INTEGER NOT NULL,
          agent_id      TEXT    NOT NULL,
          scope         TEXT    NOT NULL,
          session_id    TEXT,
          project_root  TEXT,
          grant_json    TEXT    NOT NULL, -- the grant as the rules layer saved it
          created_at    INTEGER NOT NULL,
          expires_at    INTEGER,
          revoked_at    INTEGER,
          revoke_reason TEXT,
          revoked_seq   INTEGER
        );
        CREATE INDEX grants_by_agent ON grants (agent_id);

        -- Large texts (diffs, big tool inputs), stored once, compressed, keyed by sha-256 of the UTF-8 text.
        CREATE TABLE blobs (
          hash  TEXT PRIMARY KEY,
          codec TEXT    NOT NULL,
          size  INTEGER NOT NULL,
          data  BLOB    NOT NULL
        );
        CREATE TABLE request_blobs (
          request_id TEXT NOT NULL REFERENCES requests (request_id) ON DELETE CASCADE,
          hash       TEXT NOT NULL REFERENCES blobs (hash),
          PRIMARY KEY (request_id, hash)
        ) WITHOUT ROWID;
        CREATE INDEX request_blobs_by_hash ON request_blobs (hash);
      `),
  },
  {
    version: 2,
    description: 'history filter indexes and full-text search over titles, commands and paths',
    up: (db) =>
      db.exec(`
        -- Each index ends in the rowid (hid), so an equality match on all its columns yields rows in
        -- history order. decision-page.ts picks the index whose columns the filter pins down.
        CREATE INDEX decisions_by_agent ON decisions (agent_id);
        CREATE INDEX decisions_by_session ON decisions (session_id);
        CREATE INDEX decisions_by_kind ON decisions (tool_kind);
        CREATE INDEX decisions_by_verdict ON decisions (verdict);
        CREATE INDEX decisions_by_decider ON decisions (decider_type);
        CREATE INDEX decisions_by_agent_kind_verdict ON decisions (agent_id, tool_kind, verdict);
        CREATE INDEX decisions_with_warnings ON decisions (has_warnings) WHERE has_warnings = 1;
        CREATE INDEX events_by_type ON events (type);

        -- Contentless (the text lives in requests), rowid = decisions.hid so matches come out in history
        -- order; contentless_delete lets retention remove rows. Prefix indexes of 3 and 5 letters let
        -- prefix searches read lazily instead of merging every matching term first (fts-query.ts).
        -- Kept in step by the writer and the pruner, not by triggers: FTS5 flushes its pending terms to
        -- a new segment at every statement savepoint, which a trigger opens (~120 µs per decision).
        CREATE VIRTUAL TABLE history_fts USING fts5 (
          title, command, paths,
          content = '', contentless_delete = 1,
          tokenize = 'unicode61 remove_diacritics 2',
          prefix = '3 5'
        );
        INSERT INTO history_fts (rowid, title, command, paths)
          SELECT d.hid, r.title, coalesce(r.command_text, ''),
                 (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(r.paths_json))
          FROM decisions d JOIN requests r ON r.seq = d.request_seq;
      `),
  },
  {
    version: 3,
    description: 'paired clients: browsers and phones a person paired, kept across restarts',
    up: (db) =>
      db.exec(`
        -- Only the hash of a client's token is kept. Pairing and revocation are audited as events.
        CREATE TABLE paired_clients (
          client_id  TEXT PRIMARY KEY,
          label      TEXT    NOT NULL,
          surface    TEXT    NOT NULL,
          token_hash TEXT    NOT NULL,
          paired_at  INTEGER NOT NULL,
          revoked_at INTEGER
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 4,
    description: 'export cursors: the last audit entry each exporter delivered',
    up: (db) =>
      db.exec(`
        -- Not audited: a cursor says how far a copy got, the chain stays the record. An exporter that
        -- restarts sends what follows its cursor, so nothing is skipped or sent twice.
        CREATE TABLE export_cursors (
          name TEXT PRIMARY KEY,
          seq  INTEGER NOT NULL
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 5,
    description:
      'history filter indexes: "has warnings" paired with agent, kind, verdict and decider; "no warnings"',
    up: (db) =>
      db.exec(`
        -- A filter answered by one index and checked row by row for the rest reads every row the check
        -- rejects: "timeout decisions with warnings" read the tens of thousands of timeouts to find a
        -- few. Rows with warnings are a small share, so these partial indexes (a full-column equality
        -- each, hence in history order) cost little to keep and answer each pair exactly.
        CREATE INDEX decisions_with_warnings_by_agent ON decisions (agent_id) WHERE has_warnings = 1;
        CREATE INDEX decisions_with_warnings_by_kind ON decisions (tool_kind) WHERE has_warnings = 1;
        CREATE INDEX decisions_with_warnings_by_verdict ON decisions (verdict) WHERE has_warnings = 1;
        CREATE INDEX decisions_with_warnings_by_decider ON decisions (decider_type) WHERE has_warnings = 1;
        -- "Without warnings" alone was a walk of the whole table checking each row.
        CREATE INDEX decisions_by_warnings ON decisions (has_warnings);
      `),
  },
  {
    version: 6,
    description: "a reject's message: what the person told the agent with it",
    up: (db) =>
      db.exec(`
        -- NULL for every decision without words, and for every one made before this step: the
        -- chain hashes the column only when it holds text (projections.ts), so old entries verify.
        ALTER TABLE decisions ADD COLUMN message TEXT;
      `),
  },
  {
    version: 7,
    description: 'session records: what a session needs to be taken up again after a restart',
    up: (db) =>
      db.exec(`
        -- Not audited: opening, resuming and closing a session are audited events; this row is what
        -- the core needs to start its agent again, and the transcript its people were shown.
        CREATE TABLE session_records (
          session_id      TEXT PRIMARY KEY,
          agent_id        TEXT    NOT NULL,
          acp_session_id  TEXT    NOT NULL,
          folders_json    TEXT    NOT NULL,
          sandbox_json    TEXT    NOT NULL,
          mode            TEXT,
          abilities_json  TEXT    NOT NULL,
          state           TEXT    NOT NULL CHECK (state IN ('live', 'closed', 'ended')),
          opened_at       INTEGER NOT NULL,
          ended_at        INTEGER,
          transcript_json TEXT
        ) WITHOUT ROWID;
        CREATE INDEX session_records_by_opened ON session_records (opened_at);
      `),
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to `target` (default: the newest version). Refuses a database newer than this code.
 * Returns the version found before migrating.
 */
export function migrate(db: Db, path: string, target: number = SCHEMA_VERSION): number {
  const found = schemaVersion(db);
  if (found > SCHEMA_VERSION) throw new DatabaseTooNewError(path, found, SCHEMA_VERSION);
  if (found >= target) return found;
  db.transaction(() => {
    for (const step of MIGRATIONS) {
      if (step.version <= found || step.version > target) continue;
      step.up(db);
    }
    // user_version is transactional: it commits (or rolls back) with the steps.
    db.pragma(`user_version = ${target}`);
  }).immediate();
  return found;
}
