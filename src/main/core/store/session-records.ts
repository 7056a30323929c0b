// What a session needs to be taken up again after the core restarts: which agent, the agent's own
// session id, the folder, the sandbox and mode it ran with, what its agent said it can do with a
// session, how it ended, and its transcript. Written directly, not through the audit writer: the
// session's opening, resumption and closing are audited as events; this is the directory they name.
import type { Db } from './database';

/** live: its agent runs under this core; closed: a person or its agent ended it; ended: the core did. */
export type SessionRecordState = 'live' | 'closed' | 'ended';

/** What the agent advertised in initialize about sessions (ACP sessionCapabilities, loadSession). */
export interface SessionAbilities {
  list: boolean;
  resume: boolean;
  load: boolean;
  close: boolean;
}

export interface SessionRecord {
  sessionId: string;
  /** The agent's configured id (its key in settings). */
  agentId: string;
  /** The agent's own id for the session (ACP sessionId). */
  acpSessionId: string;
  folders: string[];
  /** The sandbox as the session was shown it (SessionSandbox). */
  sandbox: unknown;
  /** A mode a person chose for this session, or null (the agent's settings decided). */
  mode: string | null;
  abilities: SessionAbilities;
  state: SessionRecordState;
  openedAt: number;
  endedAt: number | null;
}

/** Where sessions are remembered across restarts. */
export interface SessionRecordStore {
  /** Creates or replaces the session's record (its transcript is kept). */
  rememberSession(record: SessionRecord): void;
  /** The session ended: closed (not to be taken up again) or ended with the core. */
  sessionEnded(sessionId: string, state: Exclude<SessionRecordState, 'live'>, at: number): void;
  /** Replaces the session's kept transcript (JSON of its snapshot). */
  saveTranscript(sessionId: string, transcriptJson: string): void;
}

/** Records read at most: the newest, by when they opened. */
export const SESSION_RECORDS_MAX = 200;

interface SessionRecordRow {
  session_id: string;
  agent_id: string;
  acp_session_id: string;
  folders_json: string;
  sandbox_json: string;
  mode: string | null;
  abilities_json: string;
  state: SessionRecordState;
  opened_at: number;
  ended_at: number | null;
}

export function rememberSession(db: Db, r: SessionRecord): void {
  db.prepare(
    `INSERT INTO session_records (session_id, agent_id, acp_session_id, folders_json, sandbox_json,
       mode, abilities_json, state, opened_at, ended_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id) DO UPDATE SET agent_id = excluded.agent_id,
       acp_session_id = excluded.acp_session_id, folders_json = excluded.folders_json,
       sandbox_json = excluded.sandbox_json, mode = excluded.mode,
       abilities_json = excluded.abilities_json, state = excluded.state, ended_at = excluded.ended_at`,
  ).run(
    r.sessionId,
    r.agentId,
    r.acpSessionId,
    JSON.stringify(r.folders),
    JSON.stringify(r.sandbox),
    r.mode,
    JSON.stringify(r.abilities),
    r.state,
    r.openedAt,
    r.endedAt,
  );
}

export function sessionEnded(
  db: Db,
  sessionId: string,
  state: Exclude<SessionRecordState, 'live'>,
  at: number,
): void {
  db.prepare('UPDATE session_records SET state = ?, ended_at = ? WHERE session_id = ?').run(
    state,
    at,
    sessionId,
  );
}

export function saveTranscript(db: Db, sessionId: string, transcriptJson: string): void {
  db.prepare('UPDATE session_records SET transcript_json = ? WHERE session_id = ?').run(
    transcriptJson,
    sessionId,
  );
}

/** The newest records that are not closed (live ones belong to a core that is gone, or to this one). */
export function openSessionRecords(db: Db): SessionRecord[] {
  const rows = db
    .prepare(
      `SELECT session_id, agent_id, acp_session_id, folders_json, sandbox_json, mode, abilities_json,
         state, opened_at, ended_at
       FROM session_records WHERE state != 'closed' ORDER BY opened_at DESC LIMIT ?`,
    )
    .all(SESSION_RECORDS_MAX) as SessionRecordRow[];
  return rows.map((r) => ({
    sessionId: r.session_id,
    agentId: r.agent_id,
    acpSessionId: r.acp_session_id,
    folders: JSON.parse(r.folders_json) as string[],
    sandbox: JSON.parse(r.sandbox_json) as unknown,
    mode: r.mode,
    abilities: JSON.parse(r.abilities_json) as SessionAbilities,
    state: r.state,
    openedAt: r.opened_at,
    endedAt: r.ended_at,
  }));
}

/** The session's kept transcript (JSON), or null. */
export function keptTranscript(db: Db, sessionId: string): string | null {
  const row = db
    .prepare('SELECT transcript_json FROM session_records WHERE session_id = ?')
    .get(sessionId) as { transcript_json: string | null } | undefined;
  return row?.transcript_json ?? null;
}
