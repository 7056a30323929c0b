// History in words: what was decided, by whom or what, and when.
import type {
  AgentReply,
  Decider,
  DeciderType,
  PermissionMode,
  Surface,
} from '../../../shared/domain';
import { grantWords } from '../../../shared/grant-words';
import type { Grant } from '../../../shared/rules';

export type Decision = 'allow' | 'deny' | 'cancelled';

export function decisionOf(reply: AgentReply): Decision {
  if (reply.outcome === 'cancelled') return 'cancelled';
  return reply.optionKind.startsWith('allow') ? 'allow' : 'deny';
}

export const DECISION_LABEL: Record<Decision, string> = {
  allow: 'Allowed',
  deny: 'Denied',
  cancelled: 'Cancelled',
};

const SURFACE_WORDS: Record<Surface, string> = {
  dialog: 'in the approval dialog',
  browser: 'in the browser',
  notification: 'from a notification',
  tray: 'from the tray',
  api: 'through the API',
  link: 'through an approval link',
  editor: 'in the editor',
};

export const MODE_LABEL: Record<PermissionMode, string> = {
  default: 'Default',
  acceptEdits: 'Accept edits',
  plan: 'Plan',
  bypassPermissions: 'Bypass permissions',
};

export const MODE_HINT: Record<PermissionMode, string> = {
  default: 'Asks before edits and commands, as rules and grants allow.',
  acceptEdits: 'File edits are allowed without asking; commands still ask.',
  plan: 'Read only: the agent plans, nothing is changed.',
  bypassPermissions: 'Nothing asks; only deny rules still refuse.',
};

export const DECIDER_LABEL: Record<DeciderType, string> = {
  person: 'A person',
  consensus: 'Consensus',
  rule: 'A rule',
  grant: 'A grant',
  mode: 'A mode',
  timeout: 'Timeout',
  split_vote: 'Split vote',
  voter_cancelled: 'Cancelled by a voter',
  turn_cancelled: 'Turn cancelled',
  session_closed: 'Session closed',
  agent_exit: 'Agent exited',
  agent_unresponsive: 'Agent unresponsive',
  invalid_request: 'Invalid request',
  queue_full: 'Queue full',
  shutdown: 'Shutdown',
  sandbox: 'The sandbox',
};

export interface DeciderContext {
  /** Whether a person saw the request (history detail only). */
  displayed?: boolean;
  /** The grant that decided, when known, for its scope. */
  grant?: Grant;
}

/**
 * "Allowed by you in the browser", "Denied by rule no-rm", "Timed out — never displayed",
 * "Allowed by a grant: allow `npm test` in /home/me/proj for 30 min".
 */
export function deciderWords(
  reply: AgentReply,
  decider: Decider,
  context: DeciderContext = {},
): string {
  const verb = DECISION_LABEL[decisionOf(reply)];
  switch (decider.type) {
    case 'person':
      // An unpaired API client may be anyone holding the token, an agent included: not "you".
      if (decider.paired === false) return `${verb} through the API (unpaired)`;
      return `${verb} by you ${SURFACE_WORDS[decider.surface]}`;
    case 'consensus':
      return `${verb} by consensus of ${decider.clientIds.length} voter${decider.clientIds.length === 1 ? '' : 's'}`;
    case 'rule':
      return `${verb} by ${decider.source === 'managed' ? 'managed rule' : 'rule'} ${decider.ruleId}`;
    case 'grant':
      // The grant in words where it is known (the detail reads it); a list says only that one did.
      return context.grant
        ? `${verb} by a grant: ${grantWords(context.grant)}`
        : `${verb} by a grant`;
    case 'mode':
      return `${verb} by mode ${MODE_LABEL[decider.mode]}`;
    case 'timeout':
      if (context.displayed === undefined) return 'Timed out';
      return context.displayed
        ? 'Timed out — seen, but nobody decided'
        : 'Timed out — never displayed';
    case 'split_vote':
      return 'Cancelled — the votes split';
    case 'voter_cancelled':
      return 'Cancelled by a voter';
    case 'turn_cancelled':
      return 'Cancelled with the turn';
    case 'session_closed':
      return 'Cancelled — the session closed';
    case 'agent_exit':
      return 'Cancelled — the agent exited';
    case 'agent_unresponsive':
      return 'Cancelled — the agent ignored a cancel and was stopped';
    case 'invalid_request':
      return 'Refused — the request was malformed';
    case 'queue_full':
      return 'Refused — too many requests of the session were waiting';
    case 'shutdown':
      return 'Cancelled — Gatehouse shut down';
    case 'sandbox':
      return `Blocked by the sandbox (${decider.kind}, not asked)`;
  }
}

/** The first 8 characters of an id, with an ellipsis when cut. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

let dateTime: Intl.DateTimeFormat | null = null;
let timeOnly: Intl.DateTimeFormat | null = null;

/** "12 Mar 2025, 14:03:22" */
export function formatDateTime(ms: number): string {
  dateTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return dateTime.format(ms);
}

/** Time only when `ms` is today (by `now`), the date and time otherwise. */
export function formatWhen(ms: number, now: number): string {
  timeOnly ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
  const a = new Date(ms);
  const b = new Date(now);
  const sameDay =
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate();
  return sameDay ? timeOnly.format(ms) : formatDateTime(ms);
}

/** "in 29 minutes", "3 hours ago". */
export function relative(ms: number, now: number): string {
  const diff = ms - now;
  const abs = Math.abs(diff);
  const [value, unit] =
    abs < 60_000
      ? [Math.round(abs / 1000), 'second']
      : abs < 3_600_000
        ? [Math.round(abs / 60_000), 'minute']
        : abs < 86_400_000
          ? [Math.round(abs / 3_600_000), 'hour']
          : [Math.round(abs / 86_400_000), 'day'];
  const text = `${value} ${unit}${value === 1 ? '' : 's'}`;
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}
