// /api/health's answer, from the core once it runs and from the entry while it starts: one shape.
import type { CommandOutput, StartingPart } from '../../../shared/contract';
import { GATEHOUSE_VERSION } from '../../../shared/control-protocol';
import type { PermissionPolicy } from '../../../shared/domain';
import { SUPPORTED_POLICIES } from '../mediator';

export function healthAnswer(
  policy: PermissionPolicy,
  pending: number,
  starting: readonly StartingPart[],
): CommandOutput<'health'> {
  return {
    ok: true,
    version: GATEHOUSE_VERSION,
    policy,
    supportedPolicies: [...SUPPORTED_POLICIES],
    pending,
    capabilities: ['permission_mediation', 'proof_of_possession', 'sse'],
    status: starting.length > 0 ? 'starting' : 'ready',
    starting: [...starting],
  };
}
