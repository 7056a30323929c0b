import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { useAction } from '../ui/use-action';
import { ExtraFolders, extraFolderLines } from './ExtraFolders';
import { FolderField } from './FolderField';
import { StartBlocked, type Violation } from './SandboxViolations';

/**
 * Start a session: an agent, a folder and any more folders (checked by the core before the agent is
 * spawned).
 */
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
  const [extra, setExtra] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { busy: starting, run } = useAction(setError);
  const busy = starting !== null;
  const chosen = agentId || agents[0]?.id || '';
  // What the sandbox refused the agent while it started, kept while its failure is shown.
  const watching = useRef<string | null>(null);
  const [blocked, setBlocked] = useState<{ agentId: string; list: Violation[] } | null>(null);
  const [fetching, setFetching] = useState<string | null>(null);
  useEffect(
    () =>
      api.subscribe((event) => {
        if (event.type === 'launcher_fetch' && event.agentId === watching.current)
          setFetching(event.state === 'fetching' ? event.package : null);
        if (event.type !== 'sandbox_violation' || event.agentId !== watching.current) return;
        setBlocked((prev) => ({
          agentId: event.agentId,
          list: [...(prev?.agentId === event.agentId ? prev.list : []), event].slice(-20),
        }));
      }),
    [api],
  );

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
    watching.current = chosen;
    setBlocked(null);
    setFetching(null);
    void run(chosen, async () => {
      const path = cwd.trim();
      if ((await check(path)) !== null) return;
      const additionalDirectories = extraFolderLines(extra);
      const { sessionId } = await api.call('createSession', {
        agentId: chosen,
        cwd: path,
        ...(additionalDirectories.length > 0 ? { additionalDirectories } : {}),
      });
      // Started: what it is refused from now on is shown in its session.
      watching.current = null;
      setBlocked(null);
      onStarted(sessionId);
      loadRecent();
    });
  };

  return (
    <>
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
        <ExtraFolders value={extra} onChange={setExtra} disabled={busy} />
        {busy && fetching && (
          <p role="status" className="dim">
            First start: fetching {fetching} outside the sandbox; it is then pinned and started
            read-only…
          </p>
        )}
        {error && (
          <p role="alert" className="error" id="start-error">
            {error}
          </p>
        )}
      </form>
      {/* Outside the form: allowing may ask for a code in a form of its own. */}
      {error && blocked && <StartBlocked agentId={blocked.agentId} list={blocked.list} />}
    </>
  );
}
