import { useNow } from '../components/use-now';
import { useConnection } from './connection';

/**
 * The clock countdowns run on: live while the core is heard from, stopped at the moment it was last
 * heard while it is not. A countdown the core may already have ended is not shown running.
 */
export function useFrozenNow(intervalMs = 1000): number {
  const now = useNow(intervalMs);
  const { state, since } = useConnection();
  return state === 'lost' ? since : now;
}
