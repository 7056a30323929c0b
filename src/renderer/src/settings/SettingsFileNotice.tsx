// What the person should know about settings.json as it is on disk: it does not read as valid
// settings (the last good ones stay in force, and why), or saved changes wait for a restart.
import type { CommandOutput } from '../../../shared/contract';
import './SettingsFileNotice.css';

type Loaded = CommandOutput<'getSettings'>;

const RESTART_WORDS: Record<string, string> = {
  policy: 'the mediator policy',
  server: 'the server address',
  telemetry: 'the telemetry export',
  history: "the history's durability",
};

export function SettingsFileNotice({ loaded }: { loaded: Loaded }) {
  const { fileProblem, restartNeeded } = loaded;
  return (
    <>
      {fileProblem && (
        <section className="sv-file-problem" role="alert" aria-labelledby="sv-file-problem">
          <h3 id="sv-file-problem">
            settings.json has a problem: the last good settings stay in force
          </h3>
          <p>
            <code>{fileProblem.file}</code> was changed on{' '}
            {new Date(fileProblem.since).toLocaleString()} and does not read as valid settings. Fix
            it and save: Gatehouse reads it again at once. Until then, changes made here are refused
            so that your edit is not written over.
          </p>
          <ul>
            {fileProblem.problems.map((problem) => (
              <li key={problem}>
                <code>{problem}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {restartNeeded.length > 0 && (
        <p className="sv-restart-notice" role="status">
          Saved, and in force after Gatehouse restarts:{' '}
          {restartNeeded.map((key) => RESTART_WORDS[key] ?? key).join(', ')}.
        </p>
      )}
    </>
  );
}
