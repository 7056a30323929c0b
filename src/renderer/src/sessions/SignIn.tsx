import type { SessionInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { useAction, type ShowError } from '../ui/use-action';

/**
 * The agent opens no session until it is signed in: the methods it offered, in its own words
 * (shown as text). Choosing one asks the agent to sign in that way; some open a browser.
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
    </section>
  );
}
