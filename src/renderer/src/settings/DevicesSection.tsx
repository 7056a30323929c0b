// Devices: the clients that may vote, which of them a person paired, and a one-time link that pairs
// another device (a phone, a second browser). Only a paired client can make such a link.
import { useCallback, useEffect, useState } from 'react';
import type { ClientInfo } from '../../../shared/contract';
import { useApi } from '../api/context';
import { formatDateTime } from '../history/words';

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
    <section className="sv-card" aria-labelledby="sv-devices-title" id="sv-devices">
      <div className="sv-card-head">
        <div>
          <h3 id="sv-devices-title">Devices</h3>
          <p className="sv-desc">
            Votes count as yours only from a paired device. Pair another one with a link that works
            once, for ten minutes.
          </p>
        </div>
        {api.paired && (
          <button type="button" onClick={() => void pairAnother()}>
            Pair another device
          </button>
        )}
      </div>
      {error && (
        <p className="sv-error" role="alert">
          {error}
        </p>
      )}
      {code && (
        <p className="sv-pairing" role="status">
          Open on the other device (once, until {formatDateTime(code.expiresAt)}):{' '}
          <a href={code.link} data-testid="pairing-link">
            {code.link}
          </a>
        </p>
      )}
      {clients && clients.length > 0 && (
        <div className="sv-table-wrap">
          <table className="sv-table" aria-label="Devices">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Kind</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {clients.map((c) => (
                <tr key={c.clientId}>
                  <td>
                    {c.label} <code className="sv-scope-detail">{c.clientId}</code>
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
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
