// The notification of a session whose agent approves by itself and could not be set back to a mode
// that asks: Gatehouse sees none of its requests, so no rule, dialog or audit stands between the
// agent and what it does. Shown until the agent asks again or the session ends.
import type { GatehouseEvent } from '../../shared/contract';
import { LIMITS, clip, safeLine } from './text';

export interface UnguardedNotice {
  key: string;
  /** Null: the session asks again (or ended); its notification, if shown, is withdrawn. */
  shown: { title: string; body: string } | null;
}

export const unguardedKey = (sessionId: string): string => `unguarded:${sessionId}`;

/** What a session's state says about its notification; null for any other event. */
export function unguardedNotice(event: GatehouseEvent): UnguardedNotice | null {
  if (event.type !== 'session_state') return null;
  const { session } = event;
  const key = unguardedKey(session.sessionId);
  if (!session.unguarded || session.state === 'closed') return { key, shown: null };
  const agent = safeLine(session.agentId, 40);
  return {
    key,
    shown: {
      title: clip(`${agent} is not guarded`, LIMITS.title),
      body: [
        safeLine(session.unguarded, LIMITS.line),
        'Gatehouse sees none of its requests. Stop the session or change its mode.',
      ].join('\n'),
    },
  };
}
