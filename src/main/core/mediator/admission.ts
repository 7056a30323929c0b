import type { ConsensusBallot } from './consensus';
import type {
  ForbiddenReason,
  OptionDecisionReason,
  PermissionPolicy,
  PermissionRequestRecord,
  PermissionVote,
} from './types';

/** What a vote that is let in decides by, per policy. */
export const DECISION_REASON: Readonly<Record<PermissionPolicy, OptionDecisionReason>> = {
  'first-responder': 'first-responder',
  designated: 'designated-originator',
  consensus: 'consensus-quorum',
  'local-only': 'local-only-loopback',
};

/**
 * Who may vote under each policy; null lets the vote in. `clientId` is the
 * vote's id with '' already folded into anonymous. The cancel sentinel never
 * comes here: the mediator routes it before any policy check.
 */
export function refusal(
  policy: PermissionPolicy,
  record: PermissionRequestRecord,
  ballot: ConsensusBallot | undefined,
  vote: PermissionVote,
  clientId: string | undefined,
): ForbiddenReason | null {
  switch (policy) {
    case 'first-responder':
      return null;
    case 'local-only':
      // Strictly `true`: a truthy non-boolean slipped in by a bug must not open the gate.
      return vote.fromLoopback === true ? null : 'remote_not_allowed';
    case 'designated': {
      // Proof first: an unproven claim of the originator's id is exactly the spoof to refuse, and
      // a vote with no proven identity at all is unproven before it is anonymous.
      if (vote.identityProven !== true) return 'identity_unproven';
      if (clientId === undefined) return 'anonymous_not_allowed';
      const originator = record.originatorClientId;
      // No originator fails closed: nobody matches.
      if (originator === undefined || originator === '' || clientId !== originator) {
        return 'designated_mismatch';
      }
      return null;
    }
    case 'consensus':
      if (vote.identityProven !== true) return 'identity_unproven';
      if (clientId === undefined) return 'anonymous_not_allowed';
      if (ballot === undefined || !ballot.isVoter(clientId)) return 'not_a_voter';
      return null;
  }
}
