// What of the settings and the log may leave the machine in a support bundle. The agents' env values
// are hashed as the audit records them (enough to tell two values apart, not to read one); telemetry
// headers, credentials in URLs, secret-looking flags and fields are replaced. Then every value known
// to be secret is cut out of every text of the bundle, wherever it turns up.
import { redactAgent } from '../config/settings-diff';
import type { AgentConfig, Settings } from '../../../shared/settings';

export const REDACTED = '[redacted]';

/** A name that says its value is a credential: api_key, --token, Authorization, DB_PASSWORD… */
const SECRET_NAME =
  /(token|secret|passw|passphrase|pwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|cookie|session[-_]?key|(^|[-_.])key$)/i;

/** A value shorter than this is not cut out of free text: it would match everywhere and hide nothing. */
const MIN_SCRUB_LENGTH = 4;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `--token=abc` → `--token=[redacted]`; the value after a bare `--api-key` is replaced too. */
export function redactArgs(args: readonly string[]): { args: string[]; secrets: string[] } {
  const secrets: string[] = [];
  const out = args.map((arg, i) => {
    const inline = /^(-{1,2}[^=\s]+)=(.*)$/s.exec(arg);
    if (inline && isSecretName(inline[1]!)) {
      secrets.push(inline[2]!);
      return `${inline[1]}=${REDACTED}`;
    }
    const previous = args[i - 1];
    if (previous !== undefined && /^-{1,2}[^=\s]+$/.test(previous) && isSecretName(previous)) {
      secrets.push(arg);
      return REDACTED;
    }
    return redactUrl(arg);
  });
  return { args: out, secrets };
}

/** User and password of a URL and the values of its query are dropped; anything else is kept. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  if (url.username) url.username = 'redacted';
  if (url.password) url.password = 'redacted';
  for (const name of [...url.searchParams.keys()]) url.searchParams.set(name, 'redacted');
  return url.toString();
}

/** Replaces, at any depth, the string value of a field whose name says it is a secret. */
function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      typeof field === 'string' && isSecretName(name) ? REDACTED : redactFields(field),
    ]),
  );
}

function redactAgentConfig(agent: AgentConfig): AgentConfig {
  const hashed = redactAgent(agent);
  return { ...hashed, args: redactArgs(agent.args).args };
}

/** The settings as a support bundle carries them. */
export function redactSettings(settings: Settings): unknown {
  const otlp = settings.telemetry.otlp;
  const redacted: Settings = {
    ...settings,
    agents: Object.fromEntries(
      Object.entries(settings.agents).map(([id, agent]) => [id, redactAgentConfig(agent)]),
    ),
    telemetry: otlp
      ? {
          otlp: {
            ...otlp,
            endpoint: redactUrl(otlp.endpoint),
            headers: Object.fromEntries(Object.keys(otlp.headers).map((name) => [name, REDACTED])),
          },
        }
      : settings.telemetry,
  };
  return redactFields(redacted);
}

/** Every value the settings and the environment hold that must not appear in a bundle. */
export function knownSecrets(
  settings: Settings | undefined,
  env: Record<string, string | undefined>,
): string[] {
  const found: string[] = [];
  for (const agent of Object.values(settings?.agents ?? {})) {
    found.push(...Object.values(agent.env), ...redactArgs(agent.args).secrets);
  }
  found.push(...Object.values(settings?.telemetry.otlp?.headers ?? {}));
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isSecretName(name)) found.push(value);
  }
  return [...new Set(found)].filter((s) => s.length >= MIN_SCRUB_LENGTH);
}

/** `Bearer x`, `token=x`, `"apiKey": "x"`: a credential written in free text. */
const SECRET_IN_TEXT =
  /(\bbearer\s+|\b(?:[\w-]*(?:token|secret|passw(?:or)?d|api[-_]?key)[\w-]*)["']?\s*[:=]\s*["']?)([^\s"',;&]+)/gi;

/** The text with every known secret and every credential-looking assignment replaced. */
export function scrub(text: string, secrets: readonly string[]): string {
  // Longest first, so a secret that contains another is cut whole.
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  return out.replace(SECRET_IN_TEXT, (_all, lead: string) => `${lead}${REDACTED}`);
}
