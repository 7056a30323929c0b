// A person's answer to an agent's question (ACP elicitation): accept with the form's values, or
// decline. The core checks the values against the question's own form, as the page did.
import { command } from './contract-command';
import { VOTE_STATUS, VoteOutcome } from './contract-votes';
import { AnswerQuestionInput } from './question';

export const questionCommands = {
  answerQuestion: command({
    input: AnswerQuestionInput,
    output: VoteOutcome,
    http: {
      method: 'POST',
      path: '/api/approvals/:requestId/answer',
      status: (outcome) => VOTE_STATUS[outcome.kind],
    },
    summary:
      'Answer an agent’s question: accept with values that satisfy its form (none for a link), or decline.',
  }),
} as const;
