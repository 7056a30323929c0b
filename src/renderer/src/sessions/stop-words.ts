import type { StopReason } from '../../../shared/domain';

/** How a turn ended, in words: ACP's stop reasons are the agent's codes, not a person's. */
export const STOP_WORDS: Record<StopReason, string> = {
  end_turn: 'The agent finished its turn.',
  cancelled: 'Stopped: the turn was cancelled.',
  max_tokens: 'The agent stopped: its answer reached the model’s length limit.',
  max_turn_requests: 'The agent stopped: the turn reached its limit of model requests.',
  refusal: 'The agent refused to go on with this turn.',
};

export const stopWords = (reason: StopReason): string => STOP_WORDS[reason];
