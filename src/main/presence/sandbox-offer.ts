// The notification of an agent that keeps failing on something its sandbox refuses: it says what,
// and offers to allow it for the agent. Allowing is a settings change a person makes by pressing the
// button (audited by the command); nothing is ever allowed because an agent insisted.
import type { GatehouseEvent } from '../../shared/contract';
import { LIMITS, clip, safeLine } from './text';

/** What "Allow for this agent" changes: a refused write's folder or a refused host:port. */
export interface SandboxAllowance {
  agentId: string;
  kind: 'write' | 'connect';
  target: string;
}

export interface SandboxOffer {
  key: string;
  title: string;
  body: string;
  /** Null for a refused read: hidden paths are not widened from a notification. */
  allowance: SandboxAllowance | null;
}

const VERB = { write: 'write to', read: 'read', connect: 'connect to' } as const;

/** The offer for a repeated refusal; null for an event that is not one. */
export function sandboxOffer(event: GatehouseEvent): SandboxOffer | null {
  if (event.type !== 'sandbox_violation' || !event.repeated) return null;
  const { blocked, target, agentId, sessionId } = event;
  // A file that runs later stays protected whatever folder is allowed: nothing to offer.
  const allowance =
    blocked === 'read' || event.protectedBy
      ? null
      : ({ agentId, kind: blocked, target } satisfies SandboxAllowance);
  const agent = safeLine(agentId, 40);
  return {
    key: `sandbox:${sessionId}:${blocked}:${target}`.slice(0, 512),
    title: clip(`The sandbox keeps stopping ${agent}`, LIMITS.title),
    body: [
      safeLine(`It tried to ${VERB[blocked]} ${target}`, LIMITS.line),
      allowance
        ? 'Allow it for this agent from its next session?'
        : event.protectedBy
          ? `Protected: ${event.protectedBy.runs}.`
          : 'Hidden paths stay hidden; change its settings to allow it.',
    ].join('\n'),
    allowance,
  };
}
