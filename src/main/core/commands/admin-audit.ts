// Changes to what Gatehouse allows (settings, rules, Bypass, grants, pending agent changes) are
// events in the hash-chained audit, each naming who made it: the caller's client id, surface and
// transport as the transport established them (never as the caller claimed).
import type { Surface } from '../../../shared/domain';
import type { Caller } from '../approvals/clients';
import type { Store } from '../store';

export interface Actor {
  clientId: string | null;
  identityProven: boolean;
  /** A person paired this client (or it is a desktop surface); unpaired bearer-token callers are not. */
  paired: boolean;
  surface: Surface;
  transport: Caller['transport'];
}

export function actorOf(caller: Caller): Actor {
  return {
    clientId: caller.clientId,
    identityProven: caller.identityProven,
    paired: caller.paired,
    surface: caller.surface,
    transport: caller.transport,
  };
}

/** Records the event with its author and resolves once it is committed. */
export async function auditAdmin(
  store: Pick<Store, 'recordEvent' | 'flush'>,
  type: string,
  by: Actor,
  payload: Record<string, unknown>,
  refs: { agentId?: string; sessionId?: string } = {},
): Promise<void> {
  store.recordEvent({ type, ...refs, payload: { ...payload, by } });
  await store.flush();
}
