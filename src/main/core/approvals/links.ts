import { createHash, randomBytes } from 'node:crypto';

interface Link {
  requestId: string;
  expiresAt: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Single-use approval links bound to one request: the link is the credential (for a phone, a
 * colleague), good for that request only, for one vote, until the request ends. Only hashes of the
 * tokens are kept.
 */
export class ApprovalLinks {
  private readonly links = new Map<string, Link>();

  constructor(private readonly now: () => number) {}

  issue(requestId: string, expiresAt: number): string {
    const token = randomBytes(32).toString('base64url');
    this.links.set(digest(token), { requestId, expiresAt });
    return token;
  }

  /** The request a live link is bound to, or null (unknown, used, expired). */
  resolve(token: string): { requestId: string; linkId: string } | null {
    const id = digest(token);
    const link = this.links.get(id);
    if (!link) return null;
    if (link.expiresAt <= this.now()) {
      this.links.delete(id);
      return null;
    }
    return { requestId: link.requestId, linkId: id.slice(0, 16) };
  }

  /** Spends a link; false when it was already spent or never existed. */
  consume(token: string): boolean {
    return this.links.delete(digest(token));
  }

  /** A decided request's links die with it. */
  forget(requestId: string): void {
    for (const [id, link] of this.links) if (link.requestId === requestId) this.links.delete(id);
  }
}
