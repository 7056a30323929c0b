// The person at the desktop is one mediator client, whatever surface they act from (dialog,
// notification, tray): one proven client id, so consensus counts them once, and every vote carries
// the surface it came from, so the audit says where the decision was taken.
import type { VoteOutcome } from '../../shared/contract';
import type { Surface } from '../../shared/domain';
import {
  type Caller,
  type ClientRegistry,
  dispatch,
  type Dispatched,
  type Handlers,
} from '../core';
import type { ActionVote } from './notification-plan';
import type { SandboxAllowance } from './sandbox-offer';

export const DESKTOP_CLIENT_ID = 'desktop';

/** Registers the desktop person as a voter once (the dialog, notifications and tray share it). */
export function ensureDesktopClient(clients: ClientRegistry, clientId = DESKTOP_CLIENT_ID): string {
  if (!clients.isRegistered(clientId)) clients.registerLocal(clientId, 'dialog', 'desktop');
  return clientId;
}

/** An in-process surface of the desktop person: proven (it is this process), loopback, internal. */
export function desktopCaller(
  surface: Extract<Surface, 'notification' | 'tray' | 'link'>,
  clientId = DESKTOP_CLIENT_ID,
): Caller {
  return {
    clientId,
    identityProven: true,
    paired: true,
    fromLoopback: true,
    surface,
    transport: 'internal',
  };
}

export type PresenceVoteResult =
  | { ok: true; outcome: VoteOutcome }
  | { ok: false; error: Extract<Dispatched, { ok: false }>['error'] };

/** A vote through the one entry of every command, so it is validated and audited like any other. */
export async function presenceVote(
  handlers: Handlers,
  caller: Caller,
  requestId: string,
  vote: ActionVote,
): Promise<PresenceVoteResult> {
  const result = await dispatch(handlers, 'vote', { requestId, ...vote }, caller);
  return result.ok
    ? { ok: true, outcome: result.result as VoteOutcome }
    : { ok: false, error: result.error };
}

/** "Allow for this agent" from a notification: the same audited command as the session view's. */
export async function presenceAllow(
  handlers: Handlers,
  caller: Caller,
  allowance: SandboxAllowance,
): Promise<
  { ok: true; entry: string } | { ok: false; error: Extract<Dispatched, { ok: false }>['error'] }
> {
  const result = await dispatch(handlers, 'allowSandboxTarget', allowance, caller);
  return result.ok
    ? { ok: true, entry: (result.result as { entry: string }).entry }
    : { ok: false, error: result.error };
}
