import { answerProblems } from '../../../shared/question';
import type { PendingApproval } from '../../../shared/domain';
import type { PendingQueue } from '../approvals/pending';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

/**
 * A question is answered with `answerQuestion` alone: a plain vote, a link or a notification's
 * button carries no values, so "accept" there would send the agent an answer no one gave.
 * Declining and cancelling stay open to every surface.
 */
export function refuseQuestionVote(
  pending: Pick<PendingQueue, 'get'>,
  requestId: string,
  optionId: string | null,
): void {
  const question = pending.get(requestId)?.question;
  if (question && optionId === 'accept')
    throw new BadRequestError('a question is answered with answerQuestion, with its values');
}

/** A link is one vote on one request; a question's answer needs its form, so no link is made. */
export function refuseQuestionLink(approval: PendingApproval): void {
  if (approval.question) throw new BadRequestError('a question cannot be answered by a link');
}

/** A person's answer to an agent's question, checked against its own form before it counts. */
export function questionHandlers({
  pipeline,
  store,
  now,
}: Pick<CommandServices, 'pipeline' | 'store' | 'now'>): Pick<Handlers, 'answerQuestion'> {
  return {
    answerQuestion: (input, caller) => {
      const approval = pipeline.pending.get(input.requestId);
      const question = approval?.question;
      if (!approval || !question) throw new NotFoundError(`no pending question ${input.requestId}`);
      const person = caller.paired;
      // Consensus has nothing to tally in free text: the first paired voter answers (questions.ts).
      if (approval.policy === 'consensus' && !person)
        throw new ForbiddenError('under consensus a question is answered by a paired client');
      const content = input.action === 'accept' ? input.content : undefined;
      if (input.action === 'accept') {
        const problems =
          question.mode === 'form'
            ? answerProblems(question.form, content ?? {})
            : content && Object.keys(content).length > 0
              ? { _: 'a link question is accepted without values' }
              : {};
        if (Object.keys(problems).length > 0) {
          store.recordEvent({
            type: 'question_answer_refused',
            requestId: input.requestId,
            sessionId: approval.sessionId,
            payload: { problems, by: caller.clientId, surface: caller.surface },
          });
          throw new BadRequestError(
            `the answer does not fit the question: ${Object.entries(problems)
              .map(([field, problem]) => `${field}: ${problem}`)
              .join('; ')}`,
          );
        }
      }
      const outcome = pipeline.vote({
        requestId: input.requestId,
        clientId: person ? (caller.clientId ?? undefined) : undefined,
        optionId: input.action,
        fromLoopback: caller.fromLoopback,
        identityProven: person,
        receivedAtMs: now(),
        metadata: {
          surface: person ? caller.surface : 'api',
          ...(person ? {} : { paired: false }),
          ...(content && question.mode === 'form' ? { answer: content } : {}),
        },
      });
      if (outcome.kind !== 'recorded') return outcome;
      return { kind: 'recorded', votesNeeded: outcome.votesNeeded, tally: null };
    },
  };
}
