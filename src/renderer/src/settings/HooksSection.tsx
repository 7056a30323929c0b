// Terminal CLIs: whether Claude Code and Gemini CLI, run in a terminal, ask Gatehouse before each
// tool call (their user settings hold Gatehouse's hook). Installing writes the user's own files, so
// it stays a command the person runs in a terminal; this only shows it.
import { useEffect, useState } from 'react';
import { CLI_NAME, type HookedCli } from '../../../shared/hooked-clis';
import { useApi } from '../api/context';
import { AsyncState } from '../ui/AsyncState';
import { Card } from '../ui/Card';
import { Table } from '../ui/Table';
import './HooksSection.css';

function stateWords(row: HookedCli): string {
  if (row.state === 'unreadable') return `Unreadable: ${row.reason ?? 'the file cannot be read'}`;
  if (row.state === 'not-hooked') return row.reason ? `Not hooked: ${row.reason}` : 'Not hooked';
  return row.thisInstallation ? 'Hooked' : 'Hooked, by another gatehouse or for some tools only';
}

export function HooksSection() {
  const api = useApi();
  const [rows, setRows] = useState<HookedCli[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call('listHookedClis', {}).then(setRows, (e: Error) => setError(e.message));
  }, [api]);

  return (
    <Card
      id="sv-hooks"
      title="Terminal CLIs"
      description={
        <>
          Claude Code and Gemini CLI run in a terminal ask Gatehouse before each tool call once its
          hook is in their user settings.
        </>
      }
    >
      <AsyncState items={rows} error={error}>
        {(shown) => (
          <Table label="Terminal CLIs" columns={['CLI', 'Hook', 'Settings file']}>
            {shown.map((row) => (
              <tr key={row.cli} data-state={row.state}>
                <td>{CLI_NAME[row.cli]}</td>
                <td>
                  {stateWords(row)}
                  {row.commands.map((command) => (
                    <code key={command} className="sv-hook-command">
                      {command}
                    </code>
                  ))}
                  {!(row.state === 'hooked' && row.thisInstallation) && (
                    <p className="sv-hook-install">
                      To hook it, run in a terminal: <code>{row.installCommand}</code>
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
