import { useState } from 'react';

/** Where a failed action's message is shown; null clears it as the next action starts. */
export type ShowError = (message: string | null, key: string) => void;

/**
 * An action a person started on one thing (an option, a sign-in method, a grant): while its call
 * runs, `busy` names that thing so the controls can wait; if it fails, the core's words go to
 * `showError`, cleared when the next action starts.
 */
export function useAction(showError: ShowError) {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<unknown>): Promise<void> => {
    showError(null, key);
    setBusy(key);
    try {
      await action();
    } catch (err) {
      showError((err as Error).message, key);
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
