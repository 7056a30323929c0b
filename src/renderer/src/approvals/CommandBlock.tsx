import type { CommandView } from '../../../shared/domain';
import { TerminalIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { DialogSection } from './DialogSection';
import './CommandBlock.css';

/**
 * The command exactly as it will run, apart from the agent's title: monospaced, wrapped (never
 * cut), invisible characters shown; the argv when the agent sent one; the working directory.
 */
export function CommandBlock({
  command,
  sessionCwd,
}: {
  command: CommandView;
  sessionCwd: string;
}) {
  return (
    <DialogSection
      className="gh-command"
      titleId="gh-command-title"
      title={
        <>
          <TerminalIcon /> Command
        </>
      }
      note={command.source === 'rawInput' ? "from the agent's raw input" : "from the agent's title"}
    >
      {command.source === 'title' && (
        <p className="gh-note caution" role="note">
          The agent sent no raw input: the command below is the agent&apos;s own title, which
          Gatehouse cannot check against what will actually run.
        </p>
      )}
      <pre className="gh-command-text" tabIndex={0} aria-label="Command line">
        <span className="gh-prompt" aria-hidden="true">
          $
        </span>
        <Revealed text={command.command} />
      </pre>
      {command.args && command.args.length > 0 && (
        <details className="gh-argv">
          <summary>
            Arguments as passed to the program <span className="dim">({command.args.length})</span>
          </summary>
          <ol start={0}>
            {command.args.map((arg, i) => (
              <li key={i}>
                <code>
                  <Revealed text={arg} />
                </code>
              </li>
            ))}
          </ol>
        </details>
      )}
      <p className="gh-cwd">
        <span className="dim">Working directory</span>{' '}
        <code>
          <Revealed text={command.cwd ?? sessionCwd} />
        </code>
        {command.cwd === null && <span className="dim"> (the session folder)</span>}
      </p>
    </DialogSection>
  );
}
