// Serving Gatehouse beyond this machine opens its sign-in to a network. That is chosen where
// Gatehouse runs (`--host`, settings.json), never over HTTP, where an agent holding the token could
// leave it set for the next start.
import type { Settings } from '../../../shared/settings';
import type { Caller } from '../approvals/clients';
import { ForbiddenError } from '../errors';
import type { Store } from '../store';
import { actorOf, auditAdmin } from './admin-audit';

const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|::1|localhost)$/i;

/** Refuses, audited, a server.host sent over HTTP that would serve beyond this machine. */
export async function refuseRemoteExposure(
  store: Pick<Store, 'recordEvent' | 'flush'>,
  saved: Settings,
  next: Settings,
  caller: Caller,
): Promise<void> {
  const host = next.server.host;
  if (caller.transport !== 'http' || host === saved.server.host || LOOPBACK.test(host)) return;
  await auditAdmin(store, 'settings_refused', actorOf(caller), {
    key: 'server.host',
    from: saved.server.host,
    to: host.slice(0, 300),
  });
  throw new ForbiddenError(
    'serving on the network (server.host) is chosen where Gatehouse runs: --host or settings.json',
  );
}
