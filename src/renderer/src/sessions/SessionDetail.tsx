import { useEffect, useState } from 'react';
import type { PermissionMode, SessionInfo, StopReason } from '../../../shared/domain';
import { useApi } from '../api/context';
import { ModeOptions } from '../components/ModeOptions';
import { MODE_HINT } from '../history/words';
import { RefusedWrites } from './RefusedWrites';
import { SessionSandboxLine } from './SandboxLine';
import { SandboxViolations } from './SandboxViolations';
import { BuildScriptChanges } from './BuildScriptChanges';
import { PromptBox } from './PromptBox';
import { ResumeNote } from './ResumeNote';
import { SessionOptions } from './SessionOptions';
import { stopWords } from './stop-words';
import { SignIn } from './SignIn';
import { TranscriptList } from './TranscriptList';
import { statusWords } from './use-sessions';
import { runsIn } from './where';
import { useTranscript } from './use-transcript';

/** One session: what it is, its transcript, the prompt box; closed sessions can only be read. */
export function SessionDetail({ session }: { session: SessionInfo }) {
  const api = useApi();
  const { sessionId } = session;
  const transcript = useTranscript(sessionId);
  const [error, setError] = useState<string | null>(null);
  const [modeBusy, setModeBusy] = useState(false);
  const [resuming, setResuming] = useState(false);
  const [stop, setStop] = useState<StopReason | null>(null);
  const open = session.state !== 'closed';
  // An editor's (or a terminal's) session is prompted and closed there; Gatehouse shows it and decides.
  const editor = runsIn(session.via);
  const here = open && !editor;
  // The list is read again after each state change, so it can still say "prompting" when the
  // turn's end has been heard: a prompt sent on reading "The agent finished its turn." must go.
  const turning = session.state === 'prompting' && stop === null;

  // However the turn was sent (here, another window, the API), how it ended is shown, until the
  // next turn starts.
  useEffect(
    () =>
      api.subscribe((event) => {
        if (event.type === 'turn_ended' && event.sessionId === sessionId) setStop(event.stopReason);
        if (
          event.type === 'session_state' &&
          event.session.sessionId === sessionId &&
          event.session.state === 'prompting'
        )
          setStop(null);
      }),
    [api, sessionId],
  );

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const send = (prompt: string) => {
    setStop(null);
    void act(() => api.call('prompt', { sessionId, text: prompt }));
  };

  const switchMode = (mode: PermissionMode) => {
    setModeBusy(true);
    void act(() => api.call('setSessionMode', { sessionId, mode })).finally(() =>
      setModeBusy(false),
    );
  };

  return (
    <div className="session-detail">
      <h2 className="visually-hidden">Session</h2>
      <div className="session-head">
        <p>
          <strong>{session.agentId}</strong> in <code>{session.cwd}</code>
          {session.via && <> · in {runsIn(session.via)}</>} ·{' '}
          <span className="session-state">{statusWords(session)}</span>
        </p>
        {here && (
          <button
            type="button"
            onClick={() => void act(() => api.call('closeSession', { sessionId }))}
          >
            Close session
          </button>
        )}
        {session.resumable && (
          <button
            type="button"
            disabled={resuming}
            onClick={() => {
              setResuming(true);
              void act(() => api.call('resumeSession', { sessionId })).finally(() =>
                setResuming(false),
              );
            }}
          >
            {resuming ? 'Resuming…' : 'Resume session'}
          </button>
        )}
      </div>
      <ResumeNote session={session} />
      {open && (
        <div className="session-mode">
          <label>
            Permission mode
            <select
              value={session.mode}
              disabled={modeBusy}
              onChange={(e) => switchMode(e.target.value as PermissionMode)}
              aria-describedby="session-mode-hint"
            >
              <ModeOptions />
            </select>
          </label>
          {here && <SessionOptions session={session} onError={setError} />}
          <p id="session-mode-hint" className="dim">
            {MODE_HINT[session.mode]} For this session only.
          </p>
        </div>
      )}
      {open && session.state === 'starting' && <SignIn session={session} onError={setError} />}
      {open && <SessionSandboxLine sessionId={sessionId} />}
      <SandboxViolations sessionId={sessionId} />
      <RefusedWrites sessionId={sessionId} />
      <BuildScriptChanges sessionId={sessionId} />
      <h3 className="visually-hidden">Transcript</h3>
      <TranscriptList entries={transcript.entries} dropped={transcript.dropped} />
      {stop && <p className="stop dim">{stopWords(stop)}</p>}
      {open && editor && (
        <p className="dim">
          Prompted in {editor}: the turn and the session are ended there. Gatehouse shows the
          transcript and decides the agent&apos;s permission requests.
        </p>
      )}
      {here && (
        <PromptBox
          turning={turning}
          onSend={send}
          onCancel={() => void act(() => api.call('cancelTurn', { sessionId }))}
        />
      )}
      {(error ?? transcript.error) && (
        <p role="alert" className="error">
          {error ?? transcript.error}
        </p>
      )}
    </div>
  );
}
