// A vote as it crosses every boundary: what a client sends (an option, maybe with how far an
// "always" reaches, or a cancel) and what it is told back.
import { z } from 'zod';
import { PREFIX_WORDS_MAX, REJECT_MESSAGE_MAX, Uuid, VoteTally } from './domain';

export { REJECT_MESSAGE_MAX };

/**
 * How far an "always" choice reaches. The agent's own allow_always often reaches further than what
 * the person saw (Gemini CLI allows every later edit of the session), so Gatehouse keeps the grant
 * itself, scoped as chosen, and never wider than the request shown.
 */
export const GrantChoice = z
  .object({
    scope: z.enum(['session', 'project', 'agent']),
    /** Minutes until the grant lapses; absent = until revoked (or the session ends, for session). */
    expiresInMinutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 365)
      .optional(),
    /**
     * Remember only the first N words of the request's one simple command ("allow `npm test …`");
     * absent = the exact command. The core refuses a prefix that stops at a program which runs
     * whatever follows it, or a line it cannot state (compound, a read redirection).
     */
    prefixWords: z.number().int().min(1).max(PREFIX_WORDS_MAX).optional(),
  })
  .strict();
export type GrantChoice = z.infer<typeof GrantChoice>;

/**
 * What a person tells the agent with a reject ("use the test database instead"). Accepted only
 * with a reject option; the core strips control characters before the agent or the audit sees it.
 */
export const RejectMessage = z.string().max(REJECT_MESSAGE_MAX);

export const VoteInput = z.union([
  z
    .object({
      requestId: Uuid,
      optionId: z.string().min(1).max(200),
      grant: GrantChoice.optional(),
      message: RejectMessage.optional(),
    })
    .strict(),
  z.object({ requestId: Uuid, outcome: z.literal('cancelled') }).strict(),
]);
export type VoteInput = z.infer<typeof VoteInput>;

export const VoteOutcome = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('resolved'), resolvedOptionId: z.string().nullable() }),
  z.object({
    kind: z.literal('recorded'),
    votesNeeded: z.number().int(),
    tally: VoteTally.nullable(),
  }),
  /** This vote ended the request without an option: a cancel, or the vote that made a split. */
  z.object({ kind: z.literal('cancelled'), reason: z.enum(['voter_cancelled', 'split_vote']) }),
  z.object({ kind: z.literal('already_resolved'), resolvedOptionId: z.string().nullable() }),
  z.object({
    kind: z.literal('forbidden'),
    reason: z.enum([
      'designated_mismatch',
      'not_a_voter',
      'identity_unproven',
      'remote_not_allowed',
      'anonymous_not_allowed',
      'already_voted',
    ]),
  }),
  z.object({ kind: z.literal('unknown_request') }),
]);
export type VoteOutcome = z.infer<typeof VoteOutcome>;

/** The HTTP status of a vote's answer. */
export const VOTE_STATUS: Record<VoteOutcome['kind'], number> = {
  resolved: 200,
  cancelled: 200,
  recorded: 202,
  forbidden: 403,
  unknown_request: 404,
  already_resolved: 409,
};
