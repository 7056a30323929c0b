// Devices: the clients that may vote, which of them a person paired, and a one-time link that pairs
// another device (a phone, a second browser). Only a paired client can make such a link.
import { useCallback, useEffect, useState } from 'react';
import type { ClientInfo } from '../../../shared/contract';
import { useApi } from '../api/context';
import { formatDateTime } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Card } from '../ui/Card';
import { Notice } from '../ui/Notice';
import { Table } from '../ui/Table';
import './DevicesSection.css';

interface Code {
  link: string;
  expiresAt: number;
}

export function DevicesSection() {
  const api = useApi();
  const [clients, setClients] = useState<ClientInfo[] | null>(null);
  const [code, setCode] = useState<Code | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.call('listClients', {}).then(setClients, (e: Error) => setError(e.message));
  }, [api]);
  useEffect(load, [load]);

  const pairAnother = async () => {
    try {
      const made = await api.call('createPairingCode', {});
      setCode({ link: api.pairingUrl(made.secret) ?? made.path, expiresAt: made.expiresAt });
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
      {code && (
        <p className="sv-pairing" role="status">
          Open on the other device (once, until {formatDateTime(code.expiresAt)}):{' '}
          <a href={code.link} data-testid="pairing-link">
            {code.link}
          </a>
        </p>
      )}
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
