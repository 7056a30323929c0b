import type { Warning, WarningCode } from '../../../shared/domain';
import { AlertIcon, StopIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { Stack } from '../ui/Stack';
import './WarningList.css';

const CODE_LABEL: Record<WarningCode, string> = {
  title_mismatch: 'The title does not match what runs',
  bidi_control: 'Bidirectional control characters',
  zero_width: 'Invisible characters',
  ansi_escape: 'Terminal escape sequences',
  download_exec: 'Downloads code and runs it',
  secret_path: 'Touches a secret',
  outside_session: 'Outside the session folder',
  too_complex: 'Too complex to check',
  lookalike: 'Letters that only look like ASCII',
  disk_differs: 'Not what is on disk',
  link_target: 'Goes through a link',
  protected_file: 'A file other programs run',
  effect_outside: 'Its preview wrote outside the project',
  effect_protected: 'Its preview wrote a file other programs run',
  effect_mass_delete: 'Its preview deletes many files',
};

/** "diff:/a/b.ts line 3" → "the diff of /a/b.ts, line 3"; "rawInput.x" → "input field x". */
export function whereLabel(where: string): string {
  if (where.startsWith('diff:')) {
    const rest = where.slice(5);
    const line = / line (\d+)$/.exec(rest);
    return line
      ? `the diff of ${rest.slice(0, line.index)}, line ${line[1]}`
      : `the diff of ${rest}`;
  }
  if (where.startsWith('rawInput')) {
    const key = where.slice('rawInput'.length).replace(/^\./, '');
    return key ? `input field ${key}` : 'the raw input';
  }
  if (where === 'content') return 'a text the agent attached';
  return `the ${where}`;
}

/** Every warning the core found, danger first; each says what, and where. */
export function WarningList({ warnings }: { warnings: Warning[] }) {
  if (warnings.length === 0) return null;
  const sorted = [...warnings].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'danger' ? -1 : 1,
  );
  const dangers = warnings.filter((w) => w.severity === 'danger').length;
  return (
    <section className="gh-warnings" aria-labelledby="gh-warnings-title">
      <h3 id="gh-warnings-title" className="visually-hidden">
        {warnings.length} warning{warnings.length === 1 ? '' : 's'}
        {dangers > 0 ? `, ${dangers} dangerous` : ''}
      </h3>
      <Stack>
        {sorted.map((w, i) => (
          <li key={i} className={`gh-warning ${w.severity}`} data-code={w.code}>
            <span className="gh-warning-icon">
              {w.severity === 'danger' ? <StopIcon /> : <AlertIcon />}
            </span>
            <div className="gh-warning-text">
              <p className="gh-warning-title">
                <span className="gh-severity">
                  {w.severity === 'danger' ? 'Danger' : 'Caution'}
                </span>
                {CODE_LABEL[w.code]}
              </p>
              <p className="gh-warning-message">
                <Revealed text={w.message} />
              </p>
            </div>
            <span className="gh-warning-where">
              in <Revealed text={whereLabel(w.where)} />
            </span>
          </li>
        ))}
      </Stack>
    </section>
  );
}
