// The person's words with a reject, handed to the agent in the form it reads. Every reply carries
// them in the outcome's `_meta` (approvals/reject-message.ts); no agent checked reads that key, and
// none of them shows its model the reply's text, so a session Gatehouse prompts also puts them at
// the head of the person's next prompt, where the transcript shows them as sent. A terminal CLI's
// hook returns them as its reason, which the CLI gives its model with the refusal.
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
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
