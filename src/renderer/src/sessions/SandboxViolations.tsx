import { useState } from 'react';
import type { GatehouseEvent, SettingsConfirmation } from '../../../shared/contract';
import { useApi } from '../api/context';
import { Revealed } from '../components/Revealed';
import { ConfirmChange } from '../settings/ConfirmChange';
import { useSessionEvents } from './use-session-events';
import './SandboxViolations.css';

export type Violation = Extract<GatehouseEvent, { type: 'sandbox_violation' }>;

/** What the sandbox refused in a session, each write or connection with a way to allow it. */
export function SandboxViolations({ sessionId }: { sessionId: string }) {
  const list = useSessionEvents(sessionId, 'sandbox_violation');
  if (list.length === 0) return null;
  return <ViolationList list={list} />;
}

/**
 * An agent that did not start because the sandbox stopped it: which paths and hosts, each with
 * "Allow for this agent" (the same audited change, confirmed where Gatehouse runs over HTTP).
 */
export function StartBlocked({ agentId, list }: { agentId: string; list: Violation[] }) {
  if (list.length === 0) return null;
  return (
    <section className="gh-start-blocked" aria-labelledby="gh-start-blocked-title">
      <h3 id="gh-start-blocked-title">The sandbox stopped {agentId} as it started</h3>
      <p className="dim">
        Allow what it needs for this agent, then start the session again; or leave it blocked.
      </p>
      <ViolationList list={list} />
    </section>
  );
}

function ViolationList({ list }: { list: Violation[] }) {
  // One line per target: an agent that failed three times on it is one thing to decide.
  const unique = [...new Map(list.map((v) => [`${v.blocked}:${v.target}`, v])).values()];
  return (
    <ul className="gh-violations" aria-label="blocked by the sandbox">
      {unique.map((v, i) => (
        <ViolationLine key={`${i}:${v.blocked}:${v.target}`} violation={v} />
      ))}
    </ul>
  );
}

interface LineState {
  busy: boolean;
  note: string | null;
  error: string | null;
  /** What joins the agent's settings, once a person allows it. */
  entry: string | null;
  confirmation: SettingsConfirmation | null;
}

function ViolationLine({ violation }: { violation: Violation }) {
  const api = useApi();
  const [state, setState] = useState<LineState>({
    busy: false,
    note: null,
    error: null,
    entry: null,
    confirmation: null,
  });
  // A file that runs later is not opened from here: allowing its folder would not unprotect it.
  const kind = violation.blocked === 'read' || violation.protectedBy ? null : violation.blocked;
  const guarded = violation.protectedBy;
  const allowed = (entry: string) => `Allowed for this agent from its next session: ${entry}`;

  const allow = async () => {
    if (!kind) return;
    setState({ busy: true, note: null, error: null, entry: null, confirmation: null });
    try {
      const out = await api.call('allowSandboxTarget', {
        agentId: violation.agentId,
        kind,
        target: violation.target,
      });
      setState({
        busy: false,
        error: null,
        entry: out.entry,
        confirmation: out.confirmation ?? null,
        note: out.confirmation
          ? `Waiting for confirmation where Gatehouse runs: ${out.entry}`
          : allowed(out.entry),
      });
    } catch (e) {
      setState({
        busy: false,
        note: null,
        error: (e as Error).message,
        entry: null,
        confirmation: null,
      });
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
      {state.confirmation && (
        <ConfirmChange
          confirmation={state.confirmation}
          onApplied={() =>
            setState((prev) => ({
              ...prev,
              confirmation: null,
              note: allowed(prev.entry ?? violation.target),
            }))
          }
          onDismiss={() => setState((prev) => ({ ...prev, confirmation: null }))}
        />
      )}
      {state.error && (
        <span role="alert" className="error">
          {' '}
          {state.error}
        </span>
      )}
    </li>
  );
}
