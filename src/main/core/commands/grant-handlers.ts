import { NotFoundError } from '../errors';
import { actorOf, auditAdmin } from './admin-audit';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

/** Standing permissions a person gave with "always": list them, revoke one. */
export function grantHandlers({
  grants,
  store,
}: Pick<CommandServices, 'grants' | 'store'>): Pick<Handlers, 'listGrants' | 'revokeGrant'> {
  return {
    listGrants: (input) => grants.list(input.includeInactive ?? false),

    revokeGrant: async (input, caller) => {
      if (!(await grants.revoke(input.grantId, 'revoked by a person'))) {
        throw new NotFoundError(`no grant ${input.grantId} in force`);
      }
      const grant = grants.get(input.grantId);
      await auditAdmin(
        store,
        'grant_revoked',
        actorOf(caller),
        { grantId: input.grantId, scope: grant?.scope ?? null },
        grant?.agentId ? { agentId: grant.agentId } : {},
      );
      return { ok: true };
    },
  };
}
