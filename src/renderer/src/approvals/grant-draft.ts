// How far an "always" reaches, as the action bar holds it, and the grant a vote sends for it.
import type { GrantChoice } from '../../../shared/contract';
import { forHowLong } from '../../../shared/grant-words';

export type GrantScope = GrantChoice['scope'];
/** '' = until revoked; 'tomorrow' = until the next local midnight; otherwise minutes. */
export type GrantExpiry = '' | '30' | '60' | '480' | 'tomorrow';

export interface GrantDraft {
  scope: GrantScope;
  expiry: GrantExpiry;
}

export const DEFAULT_GRANT: GrantDraft = { scope: 'session', expiry: '' };

/** The grant sent with an allow_always vote; "until tomorrow" is counted at the moment of the vote. */
export function grantOf(draft: GrantDraft, now = Date.now()): GrantChoice {
  if (draft.expiry === '') return { scope: draft.scope };
  if (draft.expiry === 'tomorrow') {
    const midnight = new Date(now);
    midnight.setHours(24, 0, 0, 0);
    return {
      scope: draft.scope,
      expiresInMinutes: Math.max(1, Math.ceil((midnight.getTime() - now) / 60_000)),
    };
  }
  return { scope: draft.scope, expiresInMinutes: Number(draft.expiry) };
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
