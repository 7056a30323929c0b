import type { AgentReply, PermissionOption, PermissionOptionKind } from '../../../shared/domain';
import type { PermissionResolution } from '../mediator';

function firstOfKind(options: readonly PermissionOption[], kinds: PermissionOptionKind[]): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

const selected = (option: PermissionOption): AgentReply => ({
  outcome: 'selected',
  optionId: option.optionId,
  optionKind: option.kind,
});

/**
 * The agent's own way of saying no. Option ids differ per agent, so the choice is by kind. An agent
 * that offers no reject option can only be refused with `cancelled`.
 */
export function rejectReply(options: readonly PermissionOption[]): AgentReply {
  const option = firstOfKind(options, ['reject_once', 'reject_always']);
  return option ? selected(option) : { outcome: 'cancelled' };
}

/** Allow once when offered; `always` asks for the agent's allow_always option first. */
export function allowReply(options: readonly PermissionOption[], always = false): AgentReply {
  const order: PermissionOptionKind[] = always ? ['allow_always', 'allow_once'] : ['allow_once', 'allow_always'];
  const option = firstOfKind(options, order);
  // No allow option at all: nothing can be allowed, so the safe answer is the agent's no.
  return option ? selected(option) : rejectReply(options);
}

/**
 * Maps a mediator resolution to what the agent is told. `cancelled` is reserved for a cancelled turn
 * or a closed session; a timeout, a split vote or a voter's cancel is a refusal (fail closed).
 */
export function replyForResolution(
  options: readonly PermissionOption[],
  resolution: PermissionResolution,
): AgentReply {
  if (resolution.kind === 'option') {
    const option = options.find((o) => o.optionId === resolution.optionId);
    return option ? selected(option) : rejectReply(options);
  }
  if (resolution.reason === 'agent_cancelled' || resolution.reason === 'session_closed') {
    return { outcome: 'cancelled' };
  }
  return rejectReply(options);
}
