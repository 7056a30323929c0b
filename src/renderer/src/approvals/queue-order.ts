// Pure queue logic: order, "like this one", and which option a batch decision picks.
import type { PendingApproval, PermissionOption } from '../../../shared/domain';

/** Below this much time left, a request comes to the front of the queue, marked. */
export const EXPIRING_MS = 30_000;

export const isExpiring = (a: PendingApproval, now: number) => a.expiresAt - now < EXPIRING_MS;

/** Arrival order, except that requests about to time out come first (soonest first). */
export function orderQueue(items: readonly PendingApproval[], now: number): PendingApproval[] {
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
export function prefixOf(a: PendingApproval): string {
  if (a.command) return programOf(a.command.command);
  const path = a.diffs[0]?.path ?? a.toolCall.locations[0]?.path;
  if (path) return directoryOf(path);
  return a.toolCall.title;
}

export function likeKey(a: PendingApproval): string {
  return JSON.stringify([a.agentId, a.toolCall.kind, prefixOf(a)]);
}

/** Same agent, same tool kind, same program or folder. */
export function likeThis(items: readonly PendingApproval[], a: PendingApproval): PendingApproval[] {
  const key = likeKey(a);
  return items.filter((b) => likeKey(b) === key);
}

const firstOfKind = (a: PendingApproval, ...kinds: PermissionOption['kind'][]) => {
  for (const kind of kinds) {
    const option = a.options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
};

/** A batch approve answers each request with its own allow_once option (never an "always"). */
export const approveOption = (a: PendingApproval) => firstOfKind(a, 'allow_once');

/** A batch deny answers with reject_once, or reject_always when that is all the agent offers. */
export const denyOption = (a: PendingApproval) => firstOfKind(a, 'reject_once', 'reject_always');

/** The button focused when a request is shown: never an "always"; the deny when danger is flagged. */
export function defaultOption(a: PendingApproval): PermissionOption | undefined {
  const danger = a.warnings.some((w) => w.severity === 'danger');
  return danger
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
export function orderedOptions(a: PendingApproval): PermissionOption[] {
  return KIND_ORDER.flatMap((kind) => a.options.filter((o) => o.kind === kind));
}
