import { useState, type FormEvent } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import { useApi } from '../api/context';

/** Start a session: an agent, a folder (checked by the core before the agent is spawned). */
export function StartSession({
  agents,
  onStarted,
}: {
  agents: AgentInfo[];
  onStarted: (sessionId: string) => void;
}) {
  const api = useApi();
  const [agentId, setAgentId] = useState('');
  const [cwd, setCwd] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = agentId || agents[0]?.id || '';

  const start = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      onStarted((await api.call('createSession', { agentId: chosen, cwd: cwd.trim() })).sessionId);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="session-start" onSubmit={(e) => void start(e)} aria-label="start a session">
      <label>
        Agent
        <select value={chosen} onChange={(e) => setAgentId(e.target.value)} disabled={busy}>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="grow">
        Folder
        <input
          value={cwd}
          onChange={(e) => setCwd(e.target.value)}
          placeholder="/absolute/path/to/project"
          spellCheck={false}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'start-error' : undefined}
        />
      </label>
      <button type="submit" disabled={busy || !chosen || !cwd.trim()}>
        {busy ? 'Starting…' : 'Start session'}
      </button>
      {error && (
        <p role="alert" className="error" id="start-error">
          {error}
        </p>
      )}
    </form>
  );
}
