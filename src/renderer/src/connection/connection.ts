// What the page knows of its connection to the core, for every view: whether the core is heard
// from, since when it is not, and whether it still accepts this page's token.
import { createContext, useContext, useEffect, useState } from 'react';
import type { GatehouseApi } from '../../../shared/contract';
import type { ConnectionState } from '../api/http-client';

export interface Connection {
  state: ConnectionState;
  /** For `lost`: when the core was last heard from (what is on screen was true then). */
  since: number;
}

const ONLINE: Connection = { state: 'online', since: 0 };

export const ConnectionContext = createContext<Connection>(ONLINE);

/** The connection as the views below the provider see it (the desktop's is always online). */
export function useConnection(): Connection {
  return useContext(ConnectionContext);
}

/** A client that reports more than "connected or not" (the browser's HTTP client). */
interface Watchable {
  readonly state: Connection;
  onStateChange(listener: (state: ConnectionState, since: number) => void): () => void;
}

const watchable = (api: GatehouseApi): api is GatehouseApi & Watchable =>
  'onStateChange' in api && typeof api.onStateChange === 'function';

/** Follows the api's connection; the desktop's bridge has no network to lose. */
export function useConnectionOf(api: GatehouseApi): Connection {
  const [connection, setConnection] = useState<Connection>(() =>
    watchable(api) ? api.state : ONLINE,
  );
  useEffect(() => {
    if (!watchable(api)) {
      return api.onConnectionChange((connected) =>
        setConnection(connected ? ONLINE : { state: 'lost', since: Date.now() }),
      );
    }
    return api.onStateChange((state, since) => setConnection({ state, since }));
  }, [api]);
  return connection;
}

/** Votes are possible only while the core is heard from. */
export const canVote = (connection: Connection) =>
  connection.state === 'online' || connection.state === 'connecting';
