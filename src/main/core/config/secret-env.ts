// Agents' environment values whose names say they hold a secret (API keys, tokens, passwords) are
// written to settings.json and given to the agent, and never sent back to a client: the settings a
// client reads carry a placeholder instead, and settings sent back with the placeholder keep the
// saved value. A client that could read them would hand every key to whoever holds the token.
import type { Settings } from '../../../shared/settings';

/** What a client is shown instead of a secret value. */
export const HIDDEN_VALUE = '(set, hidden)';
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

export class HiddenValueError extends Error {
  override name = 'HiddenValueError';
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The settings as a client may read them. */
export function hideSecrets(settings: Settings): Settings {
  const agents = Object.fromEntries(
    Object.entries(settings.agents).map(([id, agent]) => [
      id,
      {
        ...agent,
        env: Object.fromEntries(
          Object.entries(agent.env).map(([name, value]) => [
            name,
            isSecretName(name) ? HIDDEN_VALUE : value,
          ]),
        ),
      },
    ]),
  );
  return { ...settings, agents };
}

/**
 * `next` with each placeholder a client sent back replaced by the saved value of the same agent and
 * variable. A placeholder with nothing saved behind it is refused: it would become the key.
 */
export function keepHiddenSecrets(next: Settings, saved: Settings): Settings {
  const agents = Object.fromEntries(
    Object.entries(next.agents).map(([id, agent]) => [
      id,
      {
        ...agent,
        env: Object.fromEntries(
          Object.entries(agent.env).map(([name, value]) => {
            if (value !== HIDDEN_VALUE) return [name, value];
            const kept = saved.agents[id]?.env[name];
            if (kept === undefined)
              throw new HiddenValueError(
                `agent "${id}": ${name} has no saved value to keep; enter the value itself`,
              );
            return [name, kept];
          }),
        ),
      },
    ]),
  );
  return { ...next, agents };
}
