import { useCallback, useState } from 'react';

export type DiffMode = 'unified' | 'split';

const KEY = 'gatehouse.diff.mode';

function stored(): DiffMode {
  try {
    return localStorage.getItem(KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

/** Unified or side by side, remembered across requests and windows (per origin). */
export function useDiffMode(): [DiffMode, (mode: DiffMode) => void] {
  const [mode, setModeState] = useState<DiffMode>(stored);
  const setMode = useCallback((next: DiffMode) => {
    setModeState(next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // storage unavailable: remembered for this view only
    }
  }, []);
  return [mode, setMode];
}
