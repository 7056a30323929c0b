import type { Caller } from '../approvals/clients';
import { ForbiddenError } from '../errors';

/**
 * For commands that change who counts as a person, or hand out a person's vote: a desktop surface
 * or a paired client only.
 */
export function requirePaired(caller: Caller, what: string): void {
  if (!caller.paired) throw new ForbiddenError(`only a paired client may ${what}`);
}
