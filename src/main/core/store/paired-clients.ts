// Paired clients (browsers and phones a person paired) outlive a restart; unpaired ones live in memory.
// Written directly, not through the audit writer: the registry audits each change as an event.
import type { Surface } from '../../../shared/domain';
import type { Db } from './database';

/** A client a person paired, as kept: its token only as a hash. */
export interface PairedClientRecord {
  clientId: string;
  label: string;
  surface: Surface;
  tokenHash: string;
  pairedAt: number;
  revokedAt: number | null;
}

/** Where paired clients outlive a restart. */
export interface PairedClientStore {
  savePairedClient(client: PairedClientRecord): void;
  revokePairedClient(clientId: string, at: number): void;
}

interface PairedClientRow {
  client_id: string;
  label: string;
  surface: PairedClientRecord['surface'];
  token_hash: string;
  paired_at: number;
  revoked_at: number | null;
}

export function listPairedClients(db: Db): PairedClientRecord[] {
  const rows = db
    .prepare('SELECT * FROM paired_clients ORDER BY paired_at')
    .all() as PairedClientRow[];
  return rows.map((r) => ({
    clientId: r.client_id,
    label: r.label,
    surface: r.surface,
    tokenHash: r.token_hash,
    pairedAt: r.paired_at,
    revokedAt: r.revoked_at,
  }));
}

export function savePairedClient(db: Db, client: PairedClientRecord): void {
  db.prepare(
    `INSERT INTO paired_clients (client_id, label, surface, token_hash, paired_at, revoked_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    client.clientId,
    client.label,
    client.surface,
    client.tokenHash,
    client.pairedAt,
    client.revokedAt,
  );
}

export function revokePairedClient(db: Db, clientId: string, at: number): void {
  db.prepare(
    'UPDATE paired_clients SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL',
  ).run(at, clientId);
}
