import { createHash, randomBytes } from 'node:crypto';

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Single-use approval links bound to one request: the link is the credential (for a phone, a
 * colleague), good for that request only, for one counted vote, until the request ends. Only hashes
 * of the tokens are kept. A link lives as long as its request: the deadline is read from the pending
 * request each time, so it follows an extension.
 */
export class ApprovalLinks {
  /** Token hash → request id. */
  private readonly links = new Map<string, string>();

  constructor(
    private readonly now: () => number,
    /** The request's current deadline, or null once it is no longer pending. */
    private readonly deadlineOf: (requestId: string) => number | null,
  ) {}

  issue(requestId: string): { token: string; linkId: string } {
    const token = randomBytes(32).toString('base64url');
    const id = digest(token);
    this.links.set(id, requestId);
    return { token, linkId: id.slice(0, 16) };
  }

  /** The request a live link is bound to, or null (unknown, used, expired). */
  resolve(token: string): { requestId: string; linkId: string } | null {
    const id = digest(token);
    const requestId = this.links.get(id);
    if (requestId === undefined) return null;
    const deadline = this.deadlineOf(requestId);
    if (deadline === null || deadline <= this.now()) {
      this.links.delete(id);
      return null;
    }
    return { requestId, linkId: id.slice(0, 16) };
  }

  /**
   * Votes with a link and spends it in the same synchronous step, so two votes with one link cannot
   * both count; a vote that `keeps` says was not counted (refused) leaves the link usable.
   * Null when the link is unknown, used or expired.
   */
  spend<T>(
    token: string,
    vote: (requestId: string) => T,
    keeps: (outcome: T) => boolean,
  ): T | null {
    const link = this.resolve(token);
    if (!link) return null;
    const outcome = vote(link.requestId);
    if (!keeps(outcome)) this.links.delete(digest(token));
    return outcome;
  }

  /** A decided request's links die with it. */
  forget(requestId: string): void {
    for (const [id, bound] of this.links) if (bound === requestId) this.links.delete(id);
  }
}
