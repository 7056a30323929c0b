// The newest audit entries as a support bundle carries them: what happened, when, to which agent and
// session, and who decided — never what was asked (titles, commands, paths, diffs, prompts, payloads).
// Only columns that hold ids, enumerations, numbers or times are read; no text column of the store is.
import type { Db } from '../store/database';

export interface AuditMetadata {
  seq: number;
  kind: string;
  at: number;
  requestId: string | null;
  grantId: string | null;
  agentId: string | null;
  sessionId: string | null;
  toolKind: string | null;
  eventType: string | null;
  voteSurface: string | null;
  verdict: string | null;
  optionKind: string | null;
  deciderType: string | null;
  latencyMs: number | null;
  grantScope: string | null;
}

const REQUEST_KINDS = "('request', 'vote', 'decision')";

const SQL = `
  SELECT a.seq, a.kind, a.at,
    CASE WHEN a.kind IN ${REQUEST_KINDS} THEN a.ref ELSE e.request_id END AS requestId,
    CASE WHEN a.kind IN ('grant', 'grant_revoke') THEN a.ref END AS grantId,
    coalesce(r.agent_id, e.agent_id, g.agent_id) AS agentId,
    coalesce(r.session_id, e.session_id, g.session_id) AS sessionId,
    CASE WHEN a.kind IN ${REQUEST_KINDS} THEN r.tool_kind END AS toolKind,
    e.type AS eventType,
    v.surface AS voteSurface,
    d.verdict AS verdict,
    d.option_kind AS optionKind,
    d.decider_type AS deciderType,
    d.latency_ms AS latencyMs,
    g.scope AS grantScope
  FROM (SELECT seq, kind, ref, at FROM audit_log ORDER BY seq DESC LIMIT @limit) a
  LEFT JOIN requests r ON a.kind IN ${REQUEST_KINDS} AND r.request_id = a.ref
  LEFT JOIN votes v ON a.kind = 'vote' AND v.seq = a.seq
  LEFT JOIN decisions d ON a.kind = 'decision' AND d.request_id = a.ref
  LEFT JOIN events e ON a.kind = 'event' AND e.seq = a.seq
  LEFT JOIN grants g ON a.kind IN ('grant', 'grant_revoke') AND g.grant_id = a.ref
  ORDER BY a.seq`;

/** The last `limit` entries of the chain, oldest first. */
export function auditMetadata(db: Db, limit: number): AuditMetadata[] {
  return db.prepare(SQL).all({ limit }) as AuditMetadata[];
}
