// Export of the current filter as JSONL or CSV: the core writes the file; a browser downloads it, the
// desktop saves it where the person chose (the api carries the difference).
import { useState } from 'react';
import { EXPORT_MAX_ROWS } from '../../../shared/contract';
import type { HistoryFilter } from '../../../shared/history';
import { useApi } from '../api/context';
import { formatCount } from '../components/format';
import { HistoryTool } from './HistoryTool';
import './ExportButtons.css';

type Status =
  | { kind: 'busy'; format: string }
  | { kind: 'done'; text: string; truncated: boolean }
  | { kind: 'error'; text: string };

export function ExportButtons({ filter }: { filter: HistoryFilter }) {
  const api = useApi();
  const [status, setStatus] = useState<Status | null>(null);

  const run = async (format: 'jsonl' | 'csv') => {
    setStatus({ kind: 'busy', format });
    try {
      const out = await api.exportHistory({ ...filter, format });
      // The save dialog cancelled: nothing to say.
      if (!out) return setStatus(null);
      setStatus({
        kind: 'done',
        truncated: out.truncated,
        text: out.truncated
          ? `Exported only the first ${formatCount(EXPORT_MAX_ROWS)} rows to ${out.filename}: narrow the filter (a date range) for the rest.`
          : `Exported ${formatCount(out.rows)} row${out.rows === 1 ? '' : 's'} to ${out.filename}.`,
      });
    } catch (error) {
      setStatus({ kind: 'error', text: `Export failed: ${(error as Error).message}` });
    }
  };

  const busy = status?.kind === 'busy';
  return (
    <HistoryTool
      status={
        status?.kind === 'busy' ? `Exporting ${status.format.toUpperCase()}…` : (status?.text ?? '')
      }
      tone={
        status?.kind === 'error' || (status?.kind === 'done' && status.truncated)
          ? 'warn'
          : undefined
      }
    >
      <div className="hv-button-group" role="group" aria-label="Export the current filter">
        <button type="button" onClick={() => void run('jsonl')} disabled={busy}>
          Export JSONL
        </button>
        <button type="button" onClick={() => void run('csv')} disabled={busy}>
          Export CSV
        </button>
      </div>
    </HistoryTool>
  );
}
