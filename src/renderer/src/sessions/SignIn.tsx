import { useState, type FormEvent } from 'react';
import type { SessionInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { useAction, type ShowError } from '../ui/use-action';
import { openSession } from './session-address';
import './SignIn.css';

/**
 * The agent opens no session until it is signed in: the methods it offered, in its own words
 * (shown as text). Choosing one asks the agent to sign in that way; some open a browser. An API key
 * can be given instead: kept in the agent's settings, never shown again, used from its next start.
 */
export function SignIn({ session, onError }: { session: SessionInfo; onError: ShowError }) {
  const api = useApi();
  const { busy, run } = useAction(onError);
  const methods = session.authMethods ?? [];

  const choose = (methodId: string) =>
    run(methodId, () =>
      api.call('authenticateSession', { sessionId: session.sessionId, methodId }),
    );

  if (methods.length === 0 && !busy) return null;
  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h3 id="sign-in-title">{session.agentId} asks you to sign in</h3>
      <p className="dim">
        The agent started but opens no session until it is signed in. It offers these ways:
      </p>
      {busy && <p role="status">Signing in with {busy}…</p>}
      <ul>
        {methods.map((m) => (
          <li key={m.id}>
            <button type="button" disabled={busy !== null} onClick={() => void choose(m.id)}>
              {m.name}
            </button>
            {m.description && <span className="dim"> {m.description}</span>}
          </li>
        ))}
      </ul>
      <ApiKeyForm session={session} onError={onError} />
    </section>
  );
}

/** A key for the agent's environment: a password field, sent once, then shown as set only. */
function ApiKeyForm({ session, onError }: { session: SessionInfo; onError: ShowError }) {
  const api = useApi();
  const { busy, run } = useAction(onError);
  const known = session.apiKey?.variable ?? null;
  const [variable, setVariable] = useState(known ?? '');
  const [value, setValue] = useState('');
  const [saved, setSaved] = useState<string | null>(session.apiKey?.set && known ? known : null);
  const { agentId, cwd, sessionId } = session;

  const save = (e: FormEvent) => {
    e.preventDefault();
    void run('key', async () => {
      const out = await api.call('setAgentApiKey', { agentId, variable: variable.trim(), value });
      setValue('');
      setSaved(out.variable);
    });
  };
  // The running agent read its environment when it started: the key reaches it at the next start.
  const restart = () =>
    void run('restart', async () => {
      await api.call('closeSession', { sessionId });
      openSession((await api.call('createSession', { agentId, cwd })).sessionId);
    });

  return (
    <form className="api-key" onSubmit={save} aria-label="API key">
      <p>
        Or give {agentId} an API key. It is kept in this agent’s settings and never shown again.
      </p>
      {!known && (
        <label>
          Variable the agent reads its key from
          <input
            value={variable}
            onChange={(e) => setVariable(e.target.value.toUpperCase())}
            placeholder="MY_AGENT_API_KEY"
            pattern="[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)"
            maxLength={64}
            required
          />
        </label>
      )}
      <label>
        {known ?? 'API key'}
        <input
          type="password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={4096}
          placeholder={saved ? 'set (enter a new key to replace it)' : 'paste the key'}
          required
        />
      </label>
      <button type="submit" disabled={busy !== null || !value || !variable}>
        Save key
      </button>
      {saved && (
        <p role="status">
          {saved} is set for {agentId}; it is used from the agent’s next start.{' '}
          <button type="button" disabled={busy !== null} onClick={restart}>
            Start again with the key
          </button>
        </p>
      )}
    </form>
  );
}
