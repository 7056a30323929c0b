// The words a person gives with a reject: cleaned once, where the vote enters the core, so the
// agent, the audit, the history and the transcript all see the same text. The model reads it, so
// line breaks and tabs stay; nothing that moves a terminal's cursor, reorders text or hides itself
// does.
import type { AgentReply, PermissionOptionKind } from '../../../shared/domain';
import { REJECT_MESSAGE_MAX } from '../../../shared/domain';
import { classify } from '../../../shared/invisible';
import type { PermissionDecision } from '../mediator';

/** Where the words travel in an ACP reply: the selected outcome's `_meta`, under our own name. */
export const REJECT_MESSAGE_META_KEY = 'gatehouse/rejectMessage';

/** Only a reject may carry words: an allow with a message would let text ride on an approval. */
export function carriesMessage(kind: PermissionOptionKind | undefined): boolean {
  return kind === 'reject_once' || kind === 'reject_always';
}

// A whole escape sequence (CSI, OSC up to BEL or ST, or a two-byte escape) goes, not only its ESC:
// "[31m" left behind would be noise the person never typed.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_])?/g;

/**
 * The message as the agent and the audit get it: escape sequences, control characters (C0 but tab
 * and line feed, DEL, C1), bidi controls and invisible characters removed, CR LF made LF, trimmed
 * and bounded. Null when nothing is left: an empty message is no message.
 */
export function cleanRejectMessage(raw: string): string | null {
  const text = raw.replace(/\r\n?/g, '\n').replace(ESCAPES, '');
  let kept = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (classify(cp) === null && cp !== 0x0d) kept += char;
  }
  const trimmed = kept.trim();
  if (trimmed === '') return null;
  if (trimmed.length <= REJECT_MESSAGE_MAX) return trimmed;
  // Cut on a code point, never between the halves of a surrogate pair.
  return trimmed
    .slice(0, REJECT_MESSAGE_MAX)
    .replace(/[\ud800-\udbff]$/, '')
    .trimEnd();
}

/**
 * The message a decided reject carries: the words of the vote that decided it. In a consensus the
 * deciding vote is the last one counted for the chosen option; when it carries no words, the
 * latest earlier vote for the same option that does, so a silent second voter does not erase the
 * first one's reason. Votes for other options never lend their words to it.
 */
export function rejectMessageOf(
  decision: PermissionDecision,
  reply: AgentReply,
): string | undefined {
  if (reply.outcome !== 'selected' || !carriesMessage(reply.optionKind)) return undefined;
  const { resolution } = decision;
  if (resolution.kind !== 'option' || resolution.optionId !== reply.optionId) return undefined;
  for (let i = decision.votes.length - 1; i >= 0; i--) {
    const vote = decision.votes[i]!;
    if (vote.optionId === reply.optionId && vote.metadata?.message) return vote.metadata.message;
  }
  return undefined;
}
