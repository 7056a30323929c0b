// Devices: the clients that may vote, which of them a person paired, and a one-time link that pairs
// another device (a phone, a second browser). Only a paired client can make such a link.
import { useCallback, useEffect, useState } from 'react';
import type { ClientInfo, CommandOutput } from '../../../shared/contract';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import { formatDateTime } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Card } from '../ui/Card';
import { Notice } from '../ui/Notice';
import { Table } from '../ui/Table';
import { type Code, PairingCode } from './PairingCode';
import './DevicesSection.css';

type Served = CommandOutput<'serverAddress'>;

export function DevicesSection() {
  const api = useApi();
  const [clients, setClients] = useState<ClientInfo[] | null>(null);
  const [served, setServed] = useState<Served | null>(null);
  const [code, setCode] = useState<Code | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.call('listClients', {}).then(setClients, (e: Error) => setError(e.message));
  }, [api]);
  useEffect(load, [load]);
  // Pairings made or revoked elsewhere, and unpaired clients a restarted core forgot.
  useWhenStreamOpens(api, load);
  useEffect(() => {
    api.call('serverAddress', {}).then(setServed, (e: Error) => setError(e.message));
  }, [api]);

  const pairAnother = async () => {
    try {
      // Another device opens the server's network address, not the one this page happens to use
      // (asked again if the click came before the first answer).
      const [made, where] = await Promise.all([
        api.call('createPairingCode', {}),
        served ?? api.call('serverAddress', {}),
      ]);
      const networkUrl = where.networkUrls[0];
      const link = api.pairingUrl(made.secret, networkUrl);
      setCode({
        link: link ?? made.path,
        expiresAt: made.expiresAt,
        reachable: link !== null && !isThisMachineOnly(link),
      });
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const revoke = async (clientId: string) => {
    try {
      await api.call('revokeClient', { clientId });
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Card
      id="sv-devices"
      title="Devices"
      description={
        <>
          Votes count as yours only from a paired device. Pair another one with a link that works
          once, for ten minutes.
        </>
      }
      actions={
        api.paired && (
          <button type="button" onClick={() => void pairAnother()}>
            Pair another device
          </button>
        )
      }
    >
      {error && <Notice tone="error">{error}</Notice>}
      {served?.served && <Reach served={served} />}
      {code && <PairingCode code={code} />}
      <AsyncState items={clients}>
        {(shown) => (
          <Table label="Devices" columns={['Device', 'Kind', 'Last seen']}>
            {shown.map((c) => (
              <tr key={c.clientId}>
                <td>
                  {c.label} <code className="ui-table-detail">{c.clientId}</code>
                </td>
                <td>{c.paired ? 'paired' : 'API client (unpaired)'}</td>
                <td>{formatDateTime(c.lastSeenAt || c.registeredAt)}</td>
                <td>
                  {api.paired && c.clientId !== 'desktop' && (
                    <button type="button" onClick={() => void revoke(c.clientId)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </AsyncState>
    </Card>
  );
}

const isThisMachineOnly = (link: string) =>
  /^http:\/\/(127\.[\d.]+|localhost|\[::1\])(:|\/)/i.test(link);

/** Who can reach this server: said plainly, as serving beyond this machine widens it. */
function Reach({ served }: { served: Served }) {
  if (served.networkUrls.length > 0) {
    return (
      <p className="sv-reach network" data-testid="server-reach">
        Reachable from the network at{' '}
        {served.networkUrls.map((url, i) => (
          <span key={url}>
            {i > 0 && ', '}
            <code>{url}</code>
          </span>
        ))}
        . Anyone on that network reaches the sign-in, and the pairing link is the only gate; over
        plain HTTP, anyone listening on the network can read it.
      </p>
    );
  }
  return (
    <p className="sv-reach" data-testid="server-reach">
      Reachable from this machine only (<code>{served.host}</code>, port {served.port}). To pair a
      phone, start Gatehouse with <code>--host</code> and this machine&apos;s address on a network
      you trust.
    </p>
  );
}
