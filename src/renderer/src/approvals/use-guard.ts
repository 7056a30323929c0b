import { useEffect, useState } from 'react';

/** Clicks and keys are ignored this long after a request appears (a click aimed at the last one). */
export const GUARD_MS = 600;

/** True until `ms` after `key` last changed; an empty key is never released. */
export function useGuard(key: string, ms = GUARD_MS): boolean {
  const [released, setReleased] = useState<string | null>(null);
  useEffect(() => {
    if (!key) return;
    const timer = setTimeout(() => setReleased(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return released !== key;
}
