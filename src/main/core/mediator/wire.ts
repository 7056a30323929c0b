import { InvalidPermissionOptionError } from './errors';
import { CANCEL_VOTE_SENTINEL } from './types';

/**
 * The guard the server applies to an `optionId` read off the wire. The mediator
 * lets the sentinel past every policy check, so a client that could send it as
 * an option would get a cancel that no policy can refuse under a false name.
 */
export function assertWireOptionId(optionId: unknown): asserts optionId is string {
  if (typeof optionId !== 'string' || optionId.length === 0 || optionId === CANCEL_VOTE_SENTINEL) {
    throw new InvalidPermissionOptionError(optionId);
  }
}
