import { useState } from 'react';
import type { GatehouseEvent } from '../../../shared/contract';
import { useApi } from '../api/context';
import { Revealed } from '../components/Revealed';
import { useSessionEvents } from './use-session-events';
import './SandboxViolations.css';

type Violation = Extract<GatehouseEvent, { type: 'sandbox_violation' }>;

/** What the sandbox refused in a session, each write or connection with a way to allow it. */
export function SandboxViolations({ sessionId }: { sessionId: string }) {
  const list = useSessionEvents(sessionId, 'sandbox_violation');
  if (list.length === 0) return null;
  return (
    <ul className="gh-violations" aria-label="blocked by the sandbox">
      {list.map((v, i) => (
        <ViolationLine key={`${i}:${v.blocked}:${v.target}`} violation={v} />
      ))}
    </ul>
  );
}

function ViolationLine({ violation }: { violation: Violation }) {
  const api = useApi();
  const [state, setState] = useState<{ busy: boolean; note: string | null; error: string | null }>({
    busy: false,
    note: null,
    error: null,
  });
  // A file that runs later is not opened from here: allowing its folder would not unprotect it.
  const kind = violation.blocked === 'read' || violation.protectedBy ? null : violation.blocked;
  const guarded = violation.protectedBy;

  const allow = async () => {
    if (!kind) return;
    setState({ busy: true, note: null, error: null });
    try {
      const out = await api.call('allowSandboxTarget', {
        agentId: violation.agentId,
        kind,
        target: violation.target,
      });
      setState({
        busy: false,
        error: null,
        note: out.confirmation
          ? `Waiting for confirmation where Gatehouse runs: ${out.entry}`
          : `Allowed for this agent from its next session: ${out.entry}`,
      });
    } catch (e) {
      setState({ busy: false, note: null, error: (e as Error).message });
    }
  };

  return (
    <li className="gh-violation">
      <span>
        {guarded?.movedTo ? 'Moved out of the project:' : 'Blocked by the sandbox:'}{' '}
        {guarded?.movedTo ? '' : `${violation.blocked} `}
        <code>
          {/* The agent wrote this path: nothing in it may hide or reorder itself. */}
          <Revealed text={violation.target} />
        </code>
        {guarded && <> — {guarded.runs}</>}
        {guarded?.movedTo && (
          <>
            {' '}
            (now in <code>{guarded.movedTo}</code>; move it back if you made it)
          </>
        )}
      </span>
      {kind && !state.note && (
        <button type="button" disabled={state.busy} onClick={() => void allow()}>
          Allow for this agent
        </button>
      )}
      {state.note && <span role="status"> {state.note}</span>}
      {state.error && (
        <span role="alert" className="error">
          {' '}
          {state.error}
        </span>
      )}
    </li>
  );
}
