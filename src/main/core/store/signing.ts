// HMAC of the chain head and the retention checkpoint with the audit key (audit-key.ts says where
// the key lives). Whoever holds the key can re-sign a forged chain: the signature defends against
// edits by tools and people that do not have it, not against root.
import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical';

export function sign(key: Buffer, payload: unknown): string {
  return createHmac('sha256', key).update(canonicalJson(payload)).digest('hex');
}
