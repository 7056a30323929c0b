import { useState } from 'react';
import { Notice } from './Notice';

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

interface Outcome {
  key: string;
  text: string;
  error: boolean;
}

/**
 * An action whose outcome is said under the thing it acted on: the text the action resolves to
 * when it succeeds, the core's words when it fails. `notice(key)` is that line for one thing.
 */
export function useReportedAction() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { busy, run } = useAction((text, key) =>
    setOutcome(text === null ? null : { key, text, error: true }),
  );
  const report = (key: string, action: () => Promise<string>) =>
    run(key, async () => setOutcome({ key, text: await action(), error: false }));
  const notice = (key: string) =>
    outcome?.key === key && <Notice tone={outcome.error ? 'error' : 'done'}>{outcome.text}</Notice>;
  return { busy, report, notice, clear: () => setOutcome(null) };
}
