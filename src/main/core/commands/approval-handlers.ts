import type { GrantChoice, VoteOutcome } from '../../../shared/contract';
import type { PendingApproval } from '../../../shared/domain';
import type { Caller } from '../approvals/clients';
import { voteTally } from '../approvals/pending';
import { factsOf } from '../approvals/rules-gate';
import { carriesMessage, cleanRejectMessage } from '../approvals/reject-message';
import { ForbiddenError, NotFoundError, BadRequestError } from '../errors';
import {
  assertWireOptionId,
  CANCEL_VOTE_SENTINEL,
  type ConsensusProgress,
  type PermissionVoteOutcome,
} from '../mediator';
import { LIST_MAX_ITEMS } from '../safety/limits';
import type { Handlers } from './dispatch';
import { refuseQuestionLink, refuseQuestionVote } from './question-handlers';
import { requirePaired } from './require-paired';
import type { CommandServices } from './services';

type ApprovalCommands =
  | 'listApprovals'
  | 'approvalDetail'
  | 'vote'
  | 'createApprovalLink'
  | 'linkedApproval'
  | 'voteByLink'
  | 'extendApproval'
  | 'markDisplayed';

/** A recorded consensus vote answers with the tally as it stood after this vote. */
function toWire(outcome: PermissionVoteOutcome, progress: ConsensusProgress | null): VoteOutcome {
  if (outcome.kind !== 'recorded') return outcome;
  const { votesNeeded, tally } = outcome;
  return {
    kind: 'recorded',
    votesNeeded,
    tally: progress && voteTally({ ...progress, votesNeeded, tally }),
  };
}

/** The request a link was made for, while it waits; the link is the caller's only credential. */
function linked(caller: Caller): { requestId: string; token: string } {
  if (!caller.link) throw new ForbiddenError('this command needs an approval link');
  return caller.link;
}

/** Pending requests: what they are, votes on them (directly or by link), their deadline. */
export function approvalHandlers({
  pipeline,
  links,
  store,
  grants,
  now,
}: Pick<CommandServices, 'pipeline' | 'links' | 'store' | 'grants' | 'now'>): Pick<
  Handlers,
  ApprovalCommands
> {
  const { pending } = pipeline;
  const waiting = (requestId: string, missing: string): PendingApproval => {
    const approval = pending.get(requestId);
    if (!approval) throw new NotFoundError(missing);
    return approval;
  };
  /**
   * A prefix the core cannot remember is refused before the vote counts: the request stays
   * waiting, so the person can choose again, and the refusal is audited. The grant is still
   * checked again when it is remembered.
   */
  const refuseUnrememberablePrefix = (
    requestId: string,
    optionId: string,
    choice: GrantChoice,
  ): void => {
    const approval = pending.get(requestId);
    const option = approval?.options.find((o) => o.optionId === optionId);
    if (!approval || option?.kind !== 'allow_always') return;
    const refused = grants.refusal(factsOf(approval, approval.cwd), choice);
    if (refused === null) return;
    store.recordEvent({
      type: 'grant_refused',
      requestId,
      sessionId: approval.sessionId,
      payload: { choice, error: refused },
    });
    throw new BadRequestError(refused);
  };

  /**
   * The person's words with a vote, cleaned; undefined when there are none (or only invisible
   * characters). Words with anything but a reject option are refused before the vote counts: the
   * request keeps waiting and the refusal is audited. A request that no longer waits is left to
   * the mediator, which answers that it was decided or is unknown; nothing is changed either way.
   */
  const wordsWith = (
    requestId: string,
    optionId: string,
    message: string | undefined,
  ): string | undefined => {
    if (message === undefined) return undefined;
    const approval = pending.get(requestId);
    if (!approval) return undefined;
    const kind = approval.options.find((o) => o.optionId === optionId)?.kind;
    if (!carriesMessage(kind)) {
      const error = 'a message can be given only with a reject option';
      store.recordEvent({
        type: 'reject_message_refused',
        requestId,
        sessionId: approval.sessionId,
        payload: { optionId, optionKind: kind ?? null, error },
      });
      throw new BadRequestError(error);
    }
    return cleanRejectMessage(message) ?? undefined;
  };

  return {
    listApprovals: () => pending.summaries(LIST_MAX_ITEMS),

    approvalDetail: (input) => waiting(input.requestId, `no pending request ${input.requestId}`),

    vote: (input, caller) => {
      const optionId = 'optionId' in input ? input.optionId : CANCEL_VOTE_SENTINEL;
      // A wire client must not be able to inject a cancel by naming the sentinel as an option.
      if ('optionId' in input) assertWireOptionId(input.optionId);
      refuseQuestionVote(pending, input.requestId, 'optionId' in input ? input.optionId : null);
      if ('grant' in input && input.grant?.prefixWords !== undefined)
        refuseUnrememberablePrefix(input.requestId, optionId, input.grant);
      const message =
        'message' in input ? wordsWith(input.requestId, optionId, input.message) : undefined;
      // A vote over the API from a client no person paired is "api (unpaired)": it counts where
      // anyone's vote counts (first-responder, local-only) and is refused where a person must decide.
      const person = caller.paired;
      const outcome = pipeline.vote({
        requestId: input.requestId,
        clientId: person ? (caller.clientId ?? undefined) : undefined,
        optionId,
        fromLoopback: caller.fromLoopback,
        identityProven: person,
        receivedAtMs: now(),
        metadata: {
          surface: person ? caller.surface : 'api',
          ...(person ? {} : { paired: false }),
          ...('grant' in input && input.grant ? { grant: input.grant } : {}),
          ...(message ? { message } : {}),
        },
      });
      return toWire(outcome, pipeline.progress(input.requestId));
    },

    createApprovalLink: (input, caller) => {
      // A link votes as a person; only a person's client may hand one out.
      requirePaired(caller, 'create an approval link');
      const approval = waiting(input.requestId, `no pending request ${input.requestId}`);
      refuseQuestionLink(approval);
      const { token, linkId } = links.issue(input.requestId);
      store.recordEvent({
        type: 'link_created',
        requestId: input.requestId,
        sessionId: approval.sessionId,
        payload: { linkId, by: caller.clientId, expiresAt: approval.expiresAt },
      });
      return { token, path: `/#/link/${token}`, expiresAt: approval.expiresAt };
    },

    linkedApproval: (_input, caller) =>
      waiting(linked(caller).requestId, 'the request of this link has been decided'),

    voteByLink: (input, caller) => {
      const { requestId, token } = linked(caller);
      const approval = waiting(requestId, 'the request of this link has been decided');
      // A bad option must not burn the link.
      if (!approval.options.some((o) => o.optionId === input.optionId)) {
        throw new BadRequestError(`unknown option ${input.optionId}`);
      }
      const message = wordsWith(requestId, input.optionId, input.message);
      // The vote and the spending of the link are one step; a refused vote leaves the link usable.
      const outcome = links.spend(
        token,
        () =>
          pipeline.vote({
            requestId,
            clientId: caller.clientId ?? undefined,
            optionId: input.optionId,
            fromLoopback: caller.fromLoopback,
            identityProven: true,
            receivedAtMs: now(),
            metadata: { surface: 'link', ...(message ? { message } : {}) },
          }),
        (result) => result.kind === 'forbidden',
      );
      if (!outcome) throw new ForbiddenError('this approval link has been used');
      return toWire(outcome, pipeline.progress(requestId));
    },

    extendApproval: (input) => {
      const expiresAt = pipeline.extend(input.requestId, input.seconds * 1000);
      // The mediator announces the new deadline to every client (permission_extended).
      if (expiresAt == null) throw new NotFoundError(`no pending request ${input.requestId}`);
      return { expiresAt };
    },

    markDisplayed: (input) => {
      if (!pending.markDisplayed(input.requestId)) {
        throw new NotFoundError(`no pending request ${input.requestId}`);
      }
      return { ok: true };
    },
  };
}
