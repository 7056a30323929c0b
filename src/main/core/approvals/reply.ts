import type { AgentReply, PermissionOption, PermissionOptionKind } from '../../../shared/domain';
import type { PermissionResolution } from '../mediator';

function firstOfKind(
  options: readonly PermissionOption[],
  kinds: PermissionOptionKind[],
): PermissionOption | undefined {
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

/**
 * What an allow tells the agent: its allow_once option, never its allow_always, which the agent
 * would remember by itself (Codex as a permanent exec-policy amendment), out of reach of a grant's
 * scope, expiry or revocation. Null when the agent's only allow is its "always": a person must
 * choose that. With no allow option at all nothing can be allowed: the agent's no.
 */
export function allowOnceReply(options: readonly PermissionOption[]): AgentReply | null {
  const once = firstOfKind(options, ['allow_once']);
  if (once) return selected(once);
  return firstOfKind(options, ['allow_always']) ? null : rejectReply(options);
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
