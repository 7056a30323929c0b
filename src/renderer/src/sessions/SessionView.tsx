import { useEffect, useState, type FormEvent } from 'react';
import type { AgentInfo, PermissionMode, StopReason } from '../../../shared/domain';
import { useApi } from '../api/context';
import { ModeOptions } from '../components/ModeOptions';
import { MODE_HINT } from '../history/words';
import { SessionSandboxLine } from './SandboxLine';
import { RefusedWrites } from './RefusedWrites';
import { SandboxViolations } from './SandboxViolations';
import './SessionView.css';

interface Turn {
  prompt: string;
  reply: string;
  stopReason: StopReason | null;
}

/** Start a session with an agent in a folder, prompt it, and read its streamed reply. */
export function SessionView() {
  const api = useApi();
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [agentId, setAgentId] = useState('');
  const [cwd, setCwd] = useState('');
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<PermissionMode | null>(null);
  const [modeBusy, setModeBusy] = useState(false);

  useEffect(() => {
    api
      .call('listAgents', {})
      .then((list) => {
        setAgents(list);
        if (list[0]) setAgentId((id) => id || list[0]!.id);
      })
      .catch((e: Error) => setError(e.message));
  }, [api]);

  useEffect(
    () =>
      api.subscribe((event) => {
        // The mode can change from anywhere (another window, the API): the switch shows what is true.
        if (event.type === 'session_state' && event.session.sessionId === sessionId)
          setMode(event.session.mode);
        if (event.type !== 'session_update' || event.sessionId !== sessionId) return;
        const update = event.update as {
          sessionUpdate: string;
          content?: { type?: string; text?: string };
        };
        if (update.sessionUpdate !== 'agent_message_chunk' || update.content?.type !== 'text')
          return;
        const chunk = update.content.text ?? '';
        setTurns((list) =>
          list.map((t, i) => (i === list.length - 1 ? { ...t, reply: t.reply + chunk } : t)),
        );
      }),
    [api, sessionId],
  );

  const start = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const created = await api.call('createSession', { agentId, cwd });
      setSessionId(created.sessionId);
      setTurns([]);
      const sessions = await api.call('listSessions', {});
      setMode(sessions.find((s) => s.sessionId === created.sessionId)?.mode ?? null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const switchMode = async (next: PermissionMode) => {
    if (!sessionId) return;
    setError(null);
    setModeBusy(true);
    try {
      setMode((await api.call('setSessionMode', { sessionId, mode: next })).mode);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setModeBusy(false);
    }
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!sessionId || !text.trim()) return;
    const prompt = text;
    setText('');
    setError(null);
    setBusy(true);
    setTurns((list) => [...list, { prompt, reply: '', stopReason: null }]);
    try {
      const { stopReason } = await api.call('prompt', { sessionId, text: prompt });
      setTurns((list) => list.map((t, i) => (i === list.length - 1 ? { ...t, stopReason } : t)));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sessions" aria-label="session">
      <form className="session-start" onSubmit={(e) => void start(e)}>
        <label>
          Agent
          <select value={agentId} onChange={(e) => setAgentId(e.target.value)} disabled={busy}>
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
          />
        </label>
        <button type="submit" disabled={busy || !agentId || !cwd}>
          Start session
        </button>
      </form>
      {agents.length === 0 && (
        <p className="dim">No agents yet: add one under &quot;agents&quot; in settings.json.</p>
      )}
      {sessionId && (
        <>
          <div className="session-mode">
            <label>
              Permission mode
              <select
                value={mode ?? ''}
                disabled={mode === null || modeBusy}
                onChange={(e) => void switchMode(e.target.value as PermissionMode)}
                aria-describedby="session-mode-hint"
              >
                {mode === null && <option value="">…</option>}
                <ModeOptions />
              </select>
            </label>
            <p id="session-mode-hint" className="dim">
              {mode ? `${MODE_HINT[mode]} For this session only.` : ''}
            </p>
          </div>
          <SessionSandboxLine sessionId={sessionId} />
          <SandboxViolations sessionId={sessionId} />
          <RefusedWrites sessionId={sessionId} />
          <ol className="transcript" aria-label="transcript">
            {turns.map((turn, i) => (
              <li key={i}>
                <p className="prompt">{turn.prompt}</p>
                <p className="reply">{turn.reply}</p>
                {turn.stopReason && <p className="stop">Turn ended: {turn.stopReason}</p>}
              </li>
            ))}
          </ol>
          <form className="prompt-form" onSubmit={(e) => void send(e)}>
            <textarea
              aria-label="prompt"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Ask the agent…"
              rows={3}
            />
            <div className="row">
              <button type="submit" disabled={busy || !text.trim()}>
                Send
              </button>
              <button
                type="button"
                disabled={!busy}
                onClick={() => void api.call('cancelTurn', { sessionId }).catch(() => {})}
              >
                Cancel turn
              </button>
            </div>
          </form>
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
