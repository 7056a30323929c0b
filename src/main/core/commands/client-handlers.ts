import { PAIRING_CODE_TTL_MS } from '../approvals/clients';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { Handlers } from './dispatch';
import { requirePaired } from './require-paired';
import type { CommandServices } from './services';

type ClientCommands =
  | 'registerClient'
  | 'pairClient'
  | 'createPairingCode'
  | 'listClients'
  | 'revokeClient'
  | 'serverAddress';

/** Who the clients are: registration, pairing with a person, revocation. */
export function clientHandlers({
  clients,
}: Pick<CommandServices, 'clients'>): Pick<Handlers, ClientCommands> {
  return {
    registerClient: (input, caller) => {
      // Over HTTP a client is a browser or an API client; it cannot pass for a desktop surface.
      if (caller.transport === 'http' && input.surface !== 'browser' && input.surface !== 'api') {
        throw new BadRequestError(
          `an HTTP client registers as browser or api, not ${input.surface}`,
        );
      }
      return clients.register(input.surface, input.label);
    },

    pairClient: (input, caller) => {
      // Only a pairing the caller proves (its id with its token) is replaced: a claimed id is not.
      const replaces = caller.identityProven && caller.paired ? caller.clientId : null;
      const paired = clients.pair(input.pairingSecret, input.label, input.surface, replaces);
      if (!paired) throw new ForbiddenError('unknown, used or expired pairing secret');
      return paired;
    },

    createPairingCode: (_input, caller) => {
      requirePaired(caller, 'make a pairing code');
      const { secret, expiresAt } = clients.issuePairingSecret(
        PAIRING_CODE_TTL_MS,
        caller.clientId,
      );
      return { secret, path: `/#pair=${secret}`, expiresAt };
    },

    listClients: () => clients.list(),

    serverAddress: () => {
      const served = clients.servedAddress();
      return served === null
        ? { served: false, host: null, port: null, networkUrls: [] }
        : { served: true, ...served };
    },

    revokeClient: (input, caller) => {
      requirePaired(caller, 'revoke a client');
      if (!clients.revoke(input.clientId, caller.clientId)) {
        throw new NotFoundError(`no client ${input.clientId} that can be revoked`);
      }
      return { ok: true };
    },
  };
}
