// Terminal CLIs: whether Claude Code and Gemini CLI, run in a terminal, ask Gatehouse before each
// tool call (their settings hold Gatehouse's hook), and for every file `gatehouse hook install`
// wrote, whether the hook is still there as installed: lost or weakened, since when and by what.
// Installing writes the user's own files, so it stays a command the person runs in a terminal;
// this only shows it, and reloads when the core reports a hook's change.
import { useCallback, useEffect, useState } from 'react';
import { CLI_NAME, type HookedCli, type HookWatch } from '../../../shared/hooked-clis';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import { formatDateTime } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Card } from '../ui/Card';
import { Table } from '../ui/Table';
import './HooksSection.css';

function stateWords(row: HookedCli): string {
  if (row.state === 'unreadable') return `Unreadable: ${row.reason ?? 'the file cannot be read'}`;
  if (row.state === 'not-hooked') return row.reason ? `Not hooked: ${row.reason}` : 'Not hooked';
  return row.thisInstallation ? 'Hooked' : 'Hooked, by another gatehouse or for some tools only';
}

const WATCH_WORDS: Record<HookWatch['status'], string> = {
  intact: 'Watched: as installed since',
  lost: 'Lost: the CLI is no longer gated, since',
  weakened: 'Weakened since',
};

function WatchLine({ row }: { row: HookedCli }) {
  const { watch } = row;
  if (!watch)
    return row.state === 'hooked' ? (
      <p className="sv-hook-watch">Not watched: installed before Gatehouse kept a record of it</p>
    ) : null;
  return (
    <div
      className="sv-hook-watch"
      data-watch={watch.status}
      role={watch.status === 'intact' ? undefined : 'alert'}
    >
      <p>
        {WATCH_WORDS[watch.status]}{' '}
        <time dateTime={new Date(watch.since).toISOString()}>{formatDateTime(watch.since)}</time>
      </p>
      {watch.changes.length > 0 && (
        <ul>
          {watch.changes.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Why to run the install command, or null when nothing needs it. */
function installHint(row: HookedCli): string | null {
  const hookedHere = row.state === 'hooked' && row.thisInstallation;
  if (row.watch) return row.watch.status === 'intact' && hookedHere ? null : 'To put it back';
  return hookedHere ? 'To have Gatehouse watch it' : 'To hook it';
}

export function HooksSection() {
  const api = useApi();
  const [rows, setRows] = useState<HookedCli[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.call('listHookedClis', {}).then(
      (list) => {
        setRows(list);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [api]);
  useEffect(load, [load]);
  useWhenStreamOpens(api, load);
  useEffect(() => api.subscribe((event) => event.type === 'hook_changed' && load()), [api, load]);

  return (
    <Card
      id="sv-hooks"
      title="Terminal CLIs"
      description={
        <>
          Claude Code and Gemini CLI run in a terminal ask Gatehouse before each tool call once its
          hook is in their settings. Gatehouse watches every file it was installed into and says
          here when the hook is removed or changed.
        </>
      }
    >
      <AsyncState items={rows} error={error}>
        {(shown) => (
          <Table label="Terminal CLIs" columns={['CLI', 'Hook', 'Settings file']}>
            {shown.map((row) => (
              <tr
                key={`${row.cli} ${row.file}`}
                data-state={row.state}
                data-watch={row.watch?.status ?? 'none'}
              >
                <td>
                  {CLI_NAME[row.cli]}
                  {row.scope === 'project' && <span className="sv-hook-scope"> (project)</span>}
                </td>
                <td>
                  {stateWords(row)}
                  {row.commands.map((command) => (
                    <code key={command} className="sv-hook-command">
                      {command}
                    </code>
                  ))}
                  <WatchLine row={row} />
                  {installHint(row) && (
                    <p className="sv-hook-install">
                      {installHint(row)}, run in a terminal: <code>{row.installCommand}</code>
                    </p>
                  )}
                </td>
                <td>
                  <code className="sv-hook-command">{row.file}</code>
                </td>
                <td />
              </tr>
            ))}
          </Table>
        )}
      </AsyncState>
    </Card>
  );
}
