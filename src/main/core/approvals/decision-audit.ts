// What a mediator decision becomes in the audit and on the bus: the votes as the history shows
// them, who decided, and the scope a person chose for an "always".
import type { GrantChoice } from '../../../shared/contract';
import type { Decider } from '../../../shared/domain';
import type { VoteRecord } from '../../../shared/history';
import { CANCEL_VOTE_SENTINEL, type AuditedVote, type PermissionDecision } from '../mediator';
import type { SessionContext } from './session-context';

function voteRecord(vote: AuditedVote, outcome: string): VoteRecord {
  return {
    clientId: vote.clientId ?? null,
    surface: vote.metadata?.surface ?? null,
    identityProven: vote.identityProven,
    optionId: vote.optionId === CANCEL_VOTE_SENTINEL ? null : vote.optionId,
    outcome,
    at: vote.receivedAtMs,
  };
}

/** Counted and refused votes together, in the order they arrived. */
export function votesOf(decision: PermissionDecision): VoteRecord[] {
  const counted = decision.votes.map((v) => voteRecord(v, 'counted'));
  const refused = decision.forbidden.map((v) => voteRecord(v, `forbidden:${v.reason}`));
  return [...counted, ...refused].sort((a, b) => a.at - b.at);
}

/** The scope the deciding voter chose for an "always"; the narrowest (session) when none was given. */
export function grantChoiceOf(decision: PermissionDecision, optionId: string): GrantChoice {
  const chosen = decision.votes.find((v) => v.optionId === optionId && v.metadata?.grant);
  return chosen?.metadata?.grant ?? { scope: 'session' };
}

export function deciderFor(decision: PermissionDecision, session: SessionContext): Decider {
  const { resolution } = decision;
  if (resolution.kind === 'option') {
    if (resolution.decidedBy.reason === 'consensus-quorum') {
      return { type: 'consensus', clientIds: [...resolution.decidedBy.clientIds] };
    }
    const clientId = resolution.decidedBy.clientIds[0] ?? null;
    const vote = decision.votes.find((v) => (v.clientId ?? null) === clientId);
    const person: Decider = { type: 'person', clientId, surface: vote?.metadata?.surface ?? 'api' };
    return vote?.metadata?.paired === false ? { ...person, paired: false } : person;
  }
  switch (resolution.reason) {
    case 'timeout':
      return { type: 'timeout' };
    case 'split_vote':
      return { type: 'split_vote' };
    case 'voter_cancelled':
      return { type: 'voter_cancelled', clientId: resolution.clientId ?? null };
    case 'agent_cancelled':
      return { type: 'turn_cancelled' };
    case 'session_closed':
      return { type: session.endReason ?? 'session_closed' };
    case 'withdrawn':
      // Only the pipeline withdraws a request, and it records the rule, grant or mode that decided.
      throw new Error(
        `request ${decision.requestId} was withdrawn: its decider is the new verdict`,
      );
  }
}
