import { newId } from '../ids';
import type {
  Decision,
  Decider,
  PendingApproval,
  PermissionPolicy,
  ToolKind,
} from '../../../shared/domain';
import type { SandboxViolation } from './violation-reporter';

type Blocked = Extract<Decider, { type: 'sandbox' }>['kind'];

const TOOL_KIND: Record<Blocked, ToolKind> = { write: 'edit', read: 'read', connect: 'fetch' };

/** The only option of a refusal nobody was asked about: history counts it as a denial. */
const REFUSED = {
  optionId: 'sandbox-refused',
  name: 'Refused by the sandbox',
  kind: 'reject_once',
} as const;

export interface ViolationSession {
  sessionId: string;
  agentId: string;
  agentName: string;
  cwd: string;
  policy: PermissionPolicy;
}

/**
 * EROFS is a write into a read-only mount; a refused access otherwise (EACCES, EPERM) is taken
 * for a read, which is what the sandbox's mounts can refuse besides writes.
 */
export function blockedKind(violation: SandboxViolation): Blocked {
  if (violation.kind === 'network') return 'connect';
  // A protected path is refused or moved for what was written there; a mount point (EBUSY) for a
  // rename or removal.
  if (violation.protected || violation.reason === 'EBUSY') return 'write';
  return violation.reason === 'EROFS' ? 'write' : 'read';
}

function titleOf(violation: SandboxViolation, kind: Blocked, target: string): string {
  const label = violation.protected;
  if (!label) return `Blocked by the sandbox: ${kind} ${target}`;
  if (label.movedTo) return `Moved out of the project: ${target} (${label.runs})`;
  return `Blocked by the sandbox: ${kind} ${target} (${label.runs})`;
}

/** A request and its decision, so that what the sandbox refused is a line in the history. */
export function violationEntry(
  session: ViolationSession,
  violation: SandboxViolation,
  at: number,
): { request: PendingApproval; decision: Decision } {
  const kind = blockedKind(violation);
  const requestId = newId();
  const target = violation.target.slice(0, 4096);
  const request: PendingApproval = {
    requestId,
    sessionId: session.sessionId,
    agentId: session.agentId,
    agentName: session.agentName,
    cwd: session.cwd,
    toolCall: {
      toolCallId: `sandbox-${requestId}`,
      kind: TOOL_KIND[kind],
      title: titleOf(violation, kind, target),
      locations: violation.kind === 'file' ? [{ path: target }] : [],
      rawInput: { ...violation, target },
      content: [],
    },
    options: [REFUSED],
    policy: session.policy,
    issuedAt: at,
    expiresAt: at,
    warnings: [],
    diffs: [],
    command: null,
    tally: null,
  };
  const decision: Decision = {
    requestId,
    sessionId: session.sessionId,
    agentId: session.agentId,
    reply: { outcome: 'selected', optionId: REFUSED.optionId, optionKind: REFUSED.kind },
    decider: { type: 'sandbox', kind, target },
    decidedAt: at,
    reason: violation.reason,
  };
  return { request, decision };
}
