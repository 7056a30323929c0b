// How far an "always" reaches, as the action bar holds it, and the grant a vote sends for it.
import type { GrantChoice } from '../../../shared/contract';
import type { PendingApproval, PrefixOffer } from '../../../shared/domain';
import {
  forHowLong,
  grantCommandText,
  grantParts,
  type GrantPart,
} from '../../../shared/grant-words';
import type { GrantCommand } from '../../../shared/rules';

export type GrantScope = GrantChoice['scope'];
/** '' = until revoked; 'tomorrow' = until the next local midnight; otherwise minutes. */
export type GrantExpiry = '' | '30' | '60' | '480' | 'tomorrow';

export interface GrantDraft {
  scope: GrantScope;
  expiry: GrantExpiry;
  /** Remember only the first N words of the command; null = the exact command (the default). */
  prefixWords: number | null;
}

export const DEFAULT_GRANT: GrantDraft = { scope: 'session', expiry: '', prefixWords: null };

/** The grant sent with an allow_always vote; "until tomorrow" is counted at the moment of the vote. */
export function grantOf(draft: GrantDraft, now = Date.now()): GrantChoice {
  const prefix = draft.prefixWords === null ? {} : { prefixWords: draft.prefixWords };
  if (draft.expiry === '') return { scope: draft.scope, ...prefix };
  if (draft.expiry === 'tomorrow') {
    const midnight = new Date(now);
    midnight.setHours(24, 0, 0, 0);
    return {
      scope: draft.scope,
      expiresInMinutes: Math.max(1, Math.ceil((midnight.getTime() - now) / 60_000)),
      ...prefix,
    };
  }
  return { scope: draft.scope, expiresInMinutes: Number(draft.expiry), ...prefix };
}

/**
 * The prefixes "always" may remember, widest last: every word the request offers, then one word
 * fewer at a time, down to the least the core accepts (`npm test -- foo …`, `npm test -- …`,
 * `npm test …`). Nothing shorter is ever offered; an offer out of shape offers nothing.
 */
export function prefixChoices(offer: PrefixOffer | undefined): number[] {
  if (!offer || offer.least < 1 || offer.least > offer.words.length) return [];
  const choices: number[] = [];
  for (let n = offer.words.length; n >= offer.least; n--) choices.push(n);
  return choices;
}

/** The first `words` words of a command as a prefix grant remembers them. */
const prefixCommand = (offer: PrefixOffer, words: number): GrantCommand => ({
  argv: offer.words.slice(0, words),
  env: {},
  writes: [],
  dynamic: [],
  match: 'prefix',
});

/** A prefix as the shell line it stands for: `npm test …`. */
export const prefixText = (offer: PrefixOffer, words: number) =>
  grantCommandText(prefixCommand(offer, words));

/**
 * What a prefix grant picked in the dialog would allow, in the words every grant list uses
 * ("allow `npm test …` in this session"); null for the exact command, or when no prefix is offered.
 */
export function draftGrantParts(
  approval: Pick<PendingApproval, 'agentId' | 'agentName' | 'sessionId' | 'cwd' | 'command'>,
  draft: GrantDraft,
  now = Date.now(),
): GrantPart[] | null {
  const offer = approval.command?.prefix;
  if (!offer || draft.prefixWords === null) return null;
  if (!prefixChoices(offer).includes(draft.prefixWords)) return null;
  const choice = grantOf(draft, now);
  return grantParts(
    {
      id: 'draft',
      agentId: approval.agentId,
      scope: draft.scope,
      sessionId: approval.sessionId,
      projectRoot: approval.cwd,
      toolKind: 'execute',
      commands: [prefixCommand(offer, draft.prefixWords)],
      createdAt: now,
      ...(choice.expiresInMinutes !== undefined
        ? { expiresAt: now + choice.expiresInMinutes * 60_000 }
        : {}),
    },
    { agentName: approval.agentName },
  );
}

/**
 * The "always" button in the scope and expiry chosen beside it, not in the agent's words (which
 * speak of the agent's own memory, and Gatehouse keeps the grant): "Allow in this project for 30
 * min", "Allow for this session".
 */
export function alwaysLabel(draft: GrantDraft, agentName: string): string {
  const where =
    draft.scope === 'project'
      ? 'in this project'
      : draft.scope === 'agent'
        ? `for ${agentName} everywhere`
        : draft.expiry === ''
          ? 'for this session'
          : 'in this session';
  const until =
    draft.expiry === ''
      ? draft.scope === 'session'
        ? ''
        : ', until revoked'
      : draft.expiry === 'tomorrow'
        ? ' until tomorrow'
        : ` ${forHowLong(Number(draft.expiry))}`;
  return `Allow ${where}${until}`;
}
