// A small promise API over @homebridge/dbus-native (pure JavaScript D-Bus): method calls with a
// timeout, signals, match rules. Only what the notification client needs; no Electron.
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import type { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';

export interface DBusMessage {
  type?: number;
  serial?: number;
  path?: string;
  interface?: string;
  member?: string;
  destination?: string;
  sender?: string;
  signature?: string;
  body?: unknown[];
  errorName?: string;
}

export interface DBusCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

type RawConnection = EventEmitter & { end(): void };
interface RawBus {
  connection: RawConnection;
  invoke(
    message: DBusCall,
    callback: (error: { name?: string; message?: string } | null, ...body: unknown[]) => void,
  ): void;
}
interface DbusNative {
  createClient(options: { stream?: Duplex; busAddress?: string }): RawBus;
  messageType: { signal: number };
}

const dbusNative = createRequire(import.meta.url)('@homebridge/dbus-native') as DbusNative;

export class DBusError extends Error {
  constructor(
    readonly dbusName: string,
    message: string,
  ) {
    super(`${dbusName}: ${message}`);
    this.name = 'DBusError';
  }
}

export type BusEndpoint =
  | { kind: 'path'; path: string }
  | { kind: 'abstract'; name: string }
  | { kind: 'tcp'; host: string; port: number };

/** The first endpoint of a D-Bus address list we can open with node:net (unix path/abstract, tcp). */
export function parseBusAddress(address: string): BusEndpoint | null {
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0) continue;
    const transport = entry.slice(0, colon);
    const params = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) params.set(pair.slice(0, eq), unescapeValue(pair.slice(eq + 1)));
    }
    if (transport === 'unix') {
      const path = params.get('path');
      if (path) return { kind: 'path', path };
      // Node speaks Linux abstract sockets directly (a leading NUL), no native addon needed.
      const abstract = params.get('abstract');
      if (abstract) return { kind: 'abstract', name: abstract };
    } else if (transport === 'tcp') {
      const port = Number(params.get('port'));
      if (Number.isInteger(port) && port > 0)
        return { kind: 'tcp', host: params.get('host') ?? 'localhost', port };
    }
  }
  return null;
}

function unescapeValue(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

function openStream(endpoint: BusEndpoint): Duplex {
  switch (endpoint.kind) {
    case 'path':
      return createConnection(endpoint.path);
    case 'abstract':
      return createConnection(`\0${endpoint.name}`);
    case 'tcp':
      return createConnection(endpoint.port, endpoint.host);
  }
}

const DBUS = {
  destination: 'org.freedesktop.DBus',
  path: '/org/freedesktop/DBus',
  interface: 'org.freedesktop.DBus',
};

export class DBusConnection {
  private readonly signalListeners = new Set<(message: DBusMessage) => void>();
  private readonly closeListeners = new Set<(error?: Error) => void>();
  private readonly pending = new Set<(error: Error) => void>();
  private ended = false;

  private constructor(
    private readonly bus: RawBus,
    private readonly callTimeoutMs: number,
  ) {
    const connection = bus.connection;
    // An 'error' without a listener would take the whole process down.
    connection.on('error', (error: Error) => this.end(error));
    connection.on('end', () => this.end(new Error('the D-Bus connection ended')));
    connection.on('message', (message: DBusMessage) => {
      if (message.type !== dbusNative.messageType.signal) return;
      for (const listener of this.signalListeners) listener(message);
    });
  }

  /** Connects and authenticates to the session bus (or `address`); rejects if it cannot within the timeout. */
  static async open(
    address: string | undefined = process.env.DBUS_SESSION_BUS_ADDRESS,
    options: { callTimeoutMs?: number } = {},
  ): Promise<DBusConnection> {
    if (!address) throw new Error('no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)');
    const endpoint = parseBusAddress(address);
    const bus = dbusNative.createClient(
      endpoint ? { stream: openStream(endpoint) } : { busAddress: address },
    );
    const connection = new DBusConnection(bus, options.callTimeoutMs ?? 5000);
    try {
      // The bus answers in order, so this returns once Hello (sent by the client) has been answered.
      await connection.call({ ...DBUS, member: 'GetId' });
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  call(message: DBusCall, timeoutMs = this.callTimeoutMs): Promise<unknown[]> {
    if (this.ended) return Promise.reject(new Error('the D-Bus connection is closed'));
    return new Promise<unknown[]>((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.pending.delete(fail);
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new Error(`D-Bus call ${message.interface}.${message.member} timed out`)),
        timeoutMs,
      );
      this.pending.add(fail);
      this.bus.invoke(message, (error, ...body) => {
        if (!this.pending.has(fail)) return;
        clearTimeout(timer);
        this.pending.delete(fail);
        if (error)
          reject(
            new DBusError(error.name ?? 'org.freedesktop.DBus.Error.Failed', error.message ?? ''),
          );
        else resolve(body);
      });
    });
  }

  async addMatch(rule: string): Promise<void> {
    await this.call({ ...DBUS, member: 'AddMatch', signature: 's', body: [rule] });
  }

  /** The unique name (":1.42") owning a well-known name, or null. */
  async nameOwner(name: string): Promise<string | null> {
    try {
      const [owner] = await this.call({
        ...DBUS,
        member: 'GetNameOwner',
        signature: 's',
        body: [name],
      });
      return typeof owner === 'string' ? owner : null;
    } catch (error) {
      if (
        error instanceof DBusError &&
        error.dbusName === 'org.freedesktop.DBus.Error.NameHasNoOwner'
      )
        return null;
      throw error;
    }
  }

  onSignal(listener: (message: DBusMessage) => void): () => void {
    this.signalListeners.add(listener);
    return () => this.signalListeners.delete(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  get closed(): boolean {
    return this.ended;
  }

  close(): void {
    this.end();
  }

  private end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    for (const fail of [...this.pending])
      fail(error ?? new Error('the D-Bus connection is closed'));
    try {
      this.bus.connection.end();
    } catch {
      // already gone
    }
    for (const listener of this.closeListeners) listener(error);
  }
}
