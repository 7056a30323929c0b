// "Verify audit": walks the hash chain of the audit and says it is whole, or names the first row
// that is not.
import { useState } from 'react';
import type { AuditVerdict } from '../../../shared/history';
import { useApi } from '../api/context';
import { ShieldIcon } from '../components/icons';
import { formatCount } from '../components/format';
import { HistoryTool } from './HistoryTool';
import { formatDateTime } from './words';
import './AuditCheck.css';

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; verdict: AuditVerdict }
  | { kind: 'error'; text: string };

export function AuditCheck() {
  const api = useApi();
  const [state, setState] = useState<State>({ kind: 'idle' });

  const verify = async () => {
    setState({ kind: 'busy' });
    try {
      setState({ kind: 'done', verdict: await api.call('verifyAudit', {}) });
    } catch (error) {
      setState({ kind: 'error', text: (error as Error).message });
    }
  };

  let text = '';
  let tone: 'ok' | 'warn' | 'bad' | undefined;
  if (state.kind === 'busy') text = 'Verifying the audit chain…';
  if (state.kind === 'error') {
    text = `The audit could not be checked: ${state.text}`;
    tone = 'warn';
  }
  if (state.kind === 'done') {
    const v = state.verdict;
    if (v.ok) {
      text = `Audit OK: ${formatCount(v.rows)} row${v.rows === 1 ? '' : 's'}, hash chain intact`;
      if (v.checkpoint) {
        text += ` (from the retention checkpoint of ${formatDateTime(v.checkpoint.at)}, ${formatCount(v.checkpoint.prunedRows)} older rows pruned)`;
      }
      text += '.';
      tone = 'ok';
    } else {
      text = `Audit broken at row ${v.firstBrokenSeq}${v.requestId ? ` (request ${v.requestId})` : ''}: ${v.reason}`;
      tone = 'bad';
    }
  }

  return (
    <HistoryTool status={text} tone={tone} testId="audit-verdict">
      <button
        type="button"
        className="hv-audit-button"
        onClick={() => void verify()}
        disabled={state.kind === 'busy'}
      >
        <ShieldIcon /> Verify audit
      </button>
    </HistoryTool>
  );
}
