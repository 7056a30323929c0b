import { useEffect, useState } from 'react';
import type { PendingApproval, PermissionOption } from '../../../shared/domain';
import { useApi } from '../api/context';

const KIND_CLASS: Record<PermissionOption['kind'], string> = {
  allow_once: 'allow',
  allow_always: 'allow-always',
  reject_once: 'reject',
  reject_always: 'reject',
};

function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.round((expiresAt - now) / 1000));
}

/** One pending request: what the agent asked, in its own words and in the raw, and its options. */
export function ApprovalDialog({ approvals }: { approvals: PendingApproval[] }) {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const current = approvals[0];

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (current) api.call('markDisplayed', { requestId: current.requestId }).catch(() => {});
  }, [api, current]);

  if (!current) return null;

  const vote = async (optionId: string) => {
    setError(null);
    try {
      const outcome = await api.call('vote', { requestId: current.requestId, optionId });
      if (outcome.kind === 'forbidden') setError(`Your vote was refused: ${outcome.reason}`);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const { toolCall } = current;
  return (
    <div className="backdrop">
      <section className="dialog" role="dialog" aria-modal="true" aria-labelledby="approval-title">
        <header className="dialog-header">
          <span className="badge">{toolCall.kind}</span>
          <h2 id="approval-title">{toolCall.title}</h2>
          <span className="queue-position" aria-label="queue position">
            1 of {approvals.length}
          </span>
        </header>
        <p className="meta">
          <strong>{current.agentName}</strong> in <code>{current.cwd}</code> ·{' '}
          <span aria-label="time left">{secondsLeft(current.expiresAt, now)} s left</span>
        </p>
        {current.warnings.length > 0 && (
          <ul className="warnings" aria-label="warnings">
            {current.warnings.map((w, i) => (
              <li key={i} className={`warning ${w.severity}`}>
                {w.message} <span className="where">({w.where})</span>
              </li>
            ))}
          </ul>
        )}
        {current.command && (
          <section aria-label="command">
            <h3>Command</h3>
            <pre className="command">{current.command.command}</pre>
            {current.command.cwd && <p className="meta">in {current.command.cwd}</p>}
          </section>
        )}
        {toolCall.locations.length > 0 && (
          <section aria-label="paths">
            <h3>Paths</h3>
            <ul className="paths">
              {toolCall.locations.map((l, i) => (
                <li key={i}>
                  <code>{l.path}</code>
                </li>
              ))}
            </ul>
          </section>
        )}
        {current.diffs.map((d) => (
          <section key={d.path} aria-label={`diff of ${d.path}`} className="diff">
            <h3>
              {d.change} <code>{d.path}</code>
            </h3>
            {d.binary ? (
              <p>Binary content ({d.newBytes} bytes) — not shown.</p>
            ) : (
              <div className="diff-sides">
                <pre className="old" aria-label="before">{d.oldText ?? ''}</pre>
                <pre className="new" aria-label="after">{d.newText ?? ''}</pre>
              </div>
            )}
          </section>
        ))}
        <details>
          <summary>Raw input</summary>
          <pre className="raw">{JSON.stringify(toolCall.rawInput, null, 2)}</pre>
        </details>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <footer className="options">
          {current.options.map((option) => (
            <button
              key={option.optionId}
              type="button"
              className={KIND_CLASS[option.kind]}
              onClick={() => void vote(option.optionId)}
            >
              {option.name}
            </button>
          ))}
        </footer>
      </section>
    </div>
  );
}
