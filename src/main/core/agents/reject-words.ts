// The person's words with a reject, handed to the agent in the form it reads. Every reply carries
// them in the outcome's `_meta` (approvals/reject-message.ts), but no agent checked reads that key.
// An agent that takes a message into its running turn (claude-agent-acp's `_session/steering`) is
// sent the words as one, so its model hears them before its next step; for the others, a session
// Gatehouse prompts puts them at the head of the person's next prompt. Either way the transcript
// shows them as the agent got them. A terminal CLI's hook returns them as its reason, which the
// CLI gives its model with the refusal.
import type { InitializeResponse, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { REJECT_MESSAGE_META_KEY } from '../approvals/reject-message';

/** Rejects a session remembers the words of until its next prompt; older ones are dropped. */
export const OWED_WORDS_MAX = 5;

/** How the words read to a model, in a hook's reason and at the head of a prompt alike. */
export const rejectedSaying = (words: string): string => `Rejected by the person: ${words}`;

/** The words a reply carries, or null. */
export function wordsOf(response: RequestPermissionResponse): string | null {
  const { outcome } = response;
  if (outcome.outcome !== 'selected') return null;
  const words = outcome._meta?.[REJECT_MESSAGE_META_KEY];
  return typeof words === 'string' && words !== '' ? words : null;
}

/** What a session keeps of the words its agent was sent and may not have read. */
export interface OwedWords {
  owedWords: string[];
}

/** Keeps the words of a reply for the session's next prompt. */
export function oweWords(session: OwedWords, response: RequestPermissionResponse): void {
  const words = wordsOf(response);
  if (words === null) return;
  session.owedWords.push(words);
  if (session.owedWords.length > OWED_WORDS_MAX) session.owedWords.shift();
}

/**
 * The prompt as sent: the words still owed, each on its own line, then a blank line and what the
 * person typed. They are owed no more once taken.
 */
export function withOwedWords(session: OwedWords, text: string): string {
  if (session.owedWords.length === 0) return text;
  const lead = session.owedWords.map(rejectedSaying).join('\n');
  session.owedWords = [];
  return `${lead}\n\n${text}`;
}

/** The ACP extension a client steers a running turn with (advertised in initialize's `_meta`). */
export const STEER_METHOD = '_session/steering';

/** Whether the agent said, when it started, that it takes messages into a running turn. */
export function steeringOffered(initialized: Pick<InitializeResponse, '_meta'>): boolean {
  const steering: unknown = initialized._meta?.['steering'];
  return (
    typeof steering === 'object' &&
    steering !== null &&
    (steering as { supported?: unknown }).supported === true
  );
}

export interface WordsRoute {
  /** Sends a message into the running turn; resolves with the agent's answer. */
  steer(text: string): Promise<unknown>;
  /** Shows what was sent in the session's transcript, as a message from the person. */
  shown(text: string): void;
}

/**
 * Hands on the words of a reply: into the running turn when the agent takes them there and says
 * it did (`injected`), else kept for the next prompt. Never waits: the reply goes to the agent at
 * once, and the steer, sent first, is read after the permission it follows is answered.
 */
export function handOnWords(
  session: OwedWords & { steers: boolean },
  response: RequestPermissionResponse,
  route: WordsRoute,
): void {
  const words = wordsOf(response);
  if (words === null) return;
  if (!session.steers) return oweWords(session, response);
  const text = rejectedSaying(words);
  route.steer(text).then(
    (answer) => {
      const injected = (answer as { outcome?: unknown } | null)?.outcome === 'injected';
      if (injected) route.shown(text);
      else oweWords(session, response);
    },
    () => oweWords(session, response),
  );
}
