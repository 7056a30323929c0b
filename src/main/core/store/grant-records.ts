// Remembered grants ("allow this for the session / project / always"). Saving and revoking go through
// the writer (audited, durable before the promise resolves); listing reads committed rows.
import type { Db } from './database';
import type { GrantRow } from './records';

export interface GrantRecord {
  id: string;
  agentId: string;
  scope: string;
  sessionId: string | null;
  projectRoot: string | null;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  revokeReason: string | null;
  /** The grant object exactly as it was saved (the rules layer's Grant). */
  grant: Record<string, unknown>;
}

export interface GrantQuery {
  agentId?: string;
  /** Include revoked and expired grants (default: only grants active at the store clock). */
  includeInactive?: boolean;
}

/** A grants row: what was saved, and the revocation, null while the grant stands. */
type GrantDbRow = GrantRow & {
  revoked_at: number | null;
  revoke_reason: string | null;
};

function toRecord(row: GrantDbRow): GrantRecord {
  return {
    id: row.grant_id,
    agentId: row.agent_id,
    scope: row.scope,
    sessionId: row.session_id,
    projectRoot: row.project_root,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    revokeReason: row.revoke_reason,
    grant: JSON.parse(row.grant_json) as Record<string, unknown>,
  };
}

export function getGrant(db: Db, id: string): GrantRecord | null {
  const row = db.prepare('SELECT * FROM grants WHERE grant_id = ?').get(id) as
    GrantDbRow | undefined;
  return row ? toRecord(row) : null;
}

export function listGrants(db: Db, query: GrantQuery, now: number): GrantRecord[] {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.agentId !== undefined) {
    where.push('agent_id = @agentId');
    params.agentId = query.agentId;
  }
  if (!query.includeInactive) {
    where.push('revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @now)');
    params.now = now;
  }
  const sql = `SELECT * FROM grants ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, grant_id`;
  return (db.prepare(sql).all(params) as GrantDbRow[]).map(toRecord);
}
