// Sandbox tests run where bubblewrap does; elsewhere they are skipped with the reason printed.
import { findBwrap } from '../../src/main/core/sandbox/wrap';

/** Why the sandbox cannot run here (printed once for `suite`), or null when it can. */
export function bwrapMissing(suite: string): string | null {
  try {
    findBwrap();
    return null;
  } catch (error) {
    const reason = (error as Error).message;
    console.warn(`${suite} tests skipped: ${reason}`);
    return reason;
  }
}
