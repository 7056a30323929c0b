// Pure queue logic: order, "like this one", and which option a batch decision picks.
import type { PendingSummary, PermissionOption, Warning } from '../../../shared/domain';

/** What a decision needs to know of a request: its options and how severe its warnings are. */
interface Decidable {
  options: readonly PermissionOption[];
  warnings: readonly Pick<Warning, 'severity'>[];
}

/** A request with at least one danger warning. */
export const hasDanger = (a: Pick<Decidable, 'warnings'>) =>
  a.warnings.some((w) => w.severity === 'danger');

/** Below this much time left, a request comes to the front of the queue, marked. */
export const EXPIRING_MS = 30_000;

export const isExpiring = (a: Pick<PendingSummary, 'expiresAt'>, now: number) =>
  a.expiresAt - now < EXPIRING_MS;

/** Arrival order, except that requests about to time out come first (soonest first). */
export function orderQueue(items: readonly PendingSummary[], now: number): PendingSummary[] {
  const expiring = items
    .filter((a) => isExpiring(a, now))
    .sort((x, y) => x.expiresAt - y.expiresAt);
  if (expiring.length === 0) return [...items];
  return [...expiring, ...items.filter((a) => !isExpiring(a, now))];
}

/** The program a shell command runs first, past `VAR=value` assignments and `sudo`/`env`. */
function programOf(command: string): string {
  const words = command.trim().split(/\s+/);
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    if (word === 'sudo' || word === 'env' || word === 'command' || word === 'exec') continue;
    return word;
  }
  return words[0] ?? '';
}

function directoryOf(path: string): string {
  const at = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return at >= 0 ? path.slice(0, at + 1) : path;
}

/** What "like this one" compares besides agent and kind: the program, or the folder touched. */
export function prefixOf(a: PendingSummary): string {
  if (a.command !== null) return programOf(a.command);
  const path = a.paths[0];
  if (path) return directoryOf(path);
  return a.title;
}

export function likeKey(a: PendingSummary): string {
  return JSON.stringify([a.agentId, a.kind, prefixOf(a)]);
}

/** Same agent, same tool kind, same program or folder. */
export function likeThis(items: readonly PendingSummary[], a: PendingSummary): PendingSummary[] {
  const key = likeKey(a);
  return items.filter((b) => likeKey(b) === key);
}

const firstOfKind = (a: Decidable, ...kinds: PermissionOption['kind'][]) => {
  for (const kind of kinds) {
    const option = a.options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
};

/** A batch approve answers each request with its own allow_once option (never an "always"). */
export const approveOption = (a: Decidable) => firstOfKind(a, 'allow_once');

/** A batch deny answers with reject_once, or reject_always when that is all the agent offers. */
export const denyOption = (a: Decidable) => firstOfKind(a, 'reject_once', 'reject_always');

/** The button focused when a request is shown: never an "always"; the deny when danger is flagged. */
export function defaultOption(a: Decidable): PermissionOption | undefined {
  return hasDanger(a)
    ? firstOfKind(a, 'reject_once', 'reject_always', 'allow_once')
    : firstOfKind(a, 'allow_once', 'reject_once', 'reject_always');
}

export const KIND_ORDER: PermissionOption['kind'][] = [
  'allow_once',
  'allow_always',
  'reject_once',
  'reject_always',
];

/** The agent's options, grouped allow then reject, once before always; agent order within a kind. */
export function orderedOptions(a: Decidable): PermissionOption[] {
  return KIND_ORDER.flatMap((kind) => a.options.filter((o) => o.kind === kind));
}
