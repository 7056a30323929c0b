import { useEffect, useState, type FormEvent } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { useAction } from '../ui/use-action';
import { FolderField } from './FolderField';

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
  const [problem, setProblem] = useState<string | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { busy: starting, run } = useAction(setError);
  const busy = starting !== null;
  const chosen = agentId || agents[0]?.id || '';

  const loadRecent = () =>
    void api
      .call('recentFolders', {})
      .then(setRecent)
      .catch(() => setRecent([]));
  useEffect(loadRecent, [api]);

  /** The core's own check of the folder, before anything is spawned; null when it will do. */
  const check = async (path: string): Promise<string | null> => {
    const checked = await api.call('checkFolder', { path });
    const found = checked.ok ? null : checked.problem;
    setProblem(found);
    return found;
  };

  const start = (e: FormEvent) => {
    e.preventDefault();
    void run(chosen, async () => {
      const path = cwd.trim();
      if ((await check(path)) !== null) return;
      onStarted((await api.call('createSession', { agentId: chosen, cwd: path })).sessionId);
      loadRecent();
    });
  };

  return (
    <form className="session-start" onSubmit={start} aria-label="start a session">
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
      <FolderField
        value={cwd}
        onChange={(path) => {
          setCwd(path);
          setProblem(null);
        }}
        onCheck={(path) => void check(path).catch(() => undefined)}
        problem={problem}
        recent={recent}
        disabled={busy}
      />
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
