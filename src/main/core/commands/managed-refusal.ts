// What the administrator's managed policy forbids is refused where a command would do it, and the
// attempt is audited with its author: a user (or an agent holding the token) trying to switch the
// policy off leaves a trace.
import type { Caller } from '../approvals/clients';
import type { ManagedPolicy } from '../config/managed-settings';
import { ForbiddenError } from '../errors';
import type { Store } from '../store';
import { actorOf, auditAdmin } from './admin-audit';

export async function refuseManaged(
  store: Pick<Store, 'recordEvent' | 'flush'>,
  managed: ManagedPolicy,
  caller: Caller,
  what: string,
  payload: Record<string, unknown>,
  refs: { agentId?: string; sessionId?: string } = {},
): Promise<never> {
  await auditAdmin(
    store,
    'managed_policy_refused',
    actorOf(caller),
    { what, ...payload, managedSettings: managed.path },
    refs,
  );
  throw new ForbiddenError(`${what}: set by your administrator in ${managed.path}`);
}
