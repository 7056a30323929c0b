import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../ids';
import type { ClientInfo } from '../../../shared/contract-commands';
import type { Surface } from '../../../shared/domain';
import type { PairedClientRecord, PairedClientStore } from '../store/paired-clients';

/** Who is calling a command: established by the transport, never by the request body. */
export interface Caller {
  /** Null unless the caller proved the id with its token: a claimed id alone is anonymous. */
  clientId: string | null;
  /** True when the caller presented the secret token issued with its client id. */
  identityProven: boolean;
  /**
   * True for a person's own client: a desktop surface (this process), or a browser or phone a
   * person paired. The bearer token alone never makes a caller paired: an agent can find it.
   */
  paired: boolean;
  /** Stamped from the socket address (HTTP) or true for in-process surfaces (IPC, tray). */
  fromLoopback: boolean;
  surface: Surface;
  /** How the call arrived: over HTTP (browsers, remote), over IPC (desktop windows), or in-process. */
  transport: 'http' | 'ipc' | 'internal';
  /** Set when the caller holds a single-use approval link instead of the bearer token. */
  link?: { token: string; requestId: string };
}

/** A client as the contract shows it (the contract's type): never its token's hash. */
export type { ClientInfo };

/** Where the HTTP server listens, as the process that started it announced. */
export interface ServedAddress {
  host: string;
  port: number;
  /** The addresses another device opens; empty when only this machine reaches the server. */
  networkUrls: string[];
}

interface Client extends ClientInfo {
  tokenHash: Buffer;
  /** The desktop person: paired by being this process, never persisted nor revoked over the API. */
  local: boolean;
  /** Open event streams: a client listening now is present whenever it last called. */
  streams: number;
}

export const PRINTED_PAIRING_TTL_MS = 24 * 3_600_000;
export const PAIRING_CODE_TTL_MS = 10 * 60_000;
/** A paired client seen this recently counts as present (a voter under consensus). */
export const PRESENCE_MS = 10 * 60_000;
export const MAX_UNPAIRED_CLIENTS = 100;
export const UNPAIRED_TTL_MS = 24 * 3_600_000;

const hash = (secret: string) => createHash('sha256').update(secret).digest();
const newSecret = () => randomBytes(32).toString('base64url');

export interface ClientRegistryOptions {
  now?: () => number;
  store?: PairedClientStore;
  /** The paired clients the store kept across restarts (read before the core starts). */
  paired?: readonly PairedClientRecord[];
  /** Audits registrations, pairings, pairing codes and revocations (ids, labels, expiry; no secrets). */
  audit?: (type: string, payload: Record<string, unknown>) => void;
}

/**
 * Issues client ids with a secret token (proof of possession), and pairs clients to a person.
 * Registering needs only the bearer token and yields an unpaired identity; pairing needs a one-time
 * secret a person handed over (the printed URL, or a code made on a paired client). Only paired
 * clients vote as people under designated and consensus, and only present ones are counted.
 */
export class ClientRegistry {
  private readonly clients = new Map<string, Client>();
  /** Pairing secrets by hash: one-time, with an expiry. */
  private readonly secrets = new Map<string, number>();
  private readonly now: () => number;
  private served: ServedAddress | null = null;
  private readonly audit: (type: string, payload: Record<string, unknown>) => void;

  constructor(private readonly options: ClientRegistryOptions = {}) {
    this.now = options.now ?? Date.now;
    this.audit = options.audit ?? (() => {});
    for (const row of options.paired ?? []) {
      if (row.revokedAt !== null) continue;
      this.clients.set(row.clientId, {
        clientId: row.clientId,
        label: row.label,
        surface: row.surface,
        paired: true,
        registeredAt: row.pairedAt,
        // Not present until it calls again: a restart does not make absent people voters.
        lastSeenAt: 0,
        tokenHash: Buffer.from(row.tokenHash, 'hex'),
        local: false,
        streams: 0,
      });
    }
  }

  /** An API client: a proven id that is not a person's (its votes count only where anyone's do). */
  register(surface: Surface, label: string = surface): { clientId: string; clientToken: string } {
    this.dropStaleUnpaired();
    const unpaired = [...this.clients.values()].filter((c) => !c.paired);
    if (unpaired.length >= MAX_UNPAIRED_CLIENTS) {
      const oldest = unpaired.reduce((a, b) => (b.lastSeenAt < a.lastSeenAt ? b : a));
      this.clients.delete(oldest.clientId);
      this.audit('client_evicted', { clientId: oldest.clientId, label: oldest.label });
    }
    const issued = this.add(`${surface}-${newId()}`, surface, label, false);
    this.audit('client_registered', { clientId: issued.clientId, label, surface });
    return issued;
  }

  /** The desktop person (dialog, notifications, tray share it); present while this process runs. */
  registerLocal(clientId: string, surface: Surface, label: string): void {
    this.add(clientId, surface, label, true, true);
  }

  isRegistered(clientId: string): boolean {
    return this.clients.has(clientId);
  }

  /** A one-time pairing secret; only its hash is kept. */
  issuePairingSecret(ttlMs: number, by: string | null): { secret: string; expiresAt: number } {
    const now = this.now();
    for (const [key, expiresAt] of this.secrets) if (expiresAt <= now) this.secrets.delete(key);
    const secret = newSecret();
    const expiresAt = now + ttlMs;
    this.secrets.set(hash(secret).toString('hex'), expiresAt);
    this.audit('pairing_code_created', { by, expiresAt });
    return { secret, expiresAt };
  }

  /**
   * Where devices reach this core to pair. Serving beyond this machine widens who can reach the
   * sign-in, so it is audited at each start.
   */
  announceServer(address: ServedAddress): void {
    this.served = { ...address, networkUrls: [...address.networkUrls] };
    this.audit('server_listening', {
      host: address.host,
      port: address.port,
      network: address.networkUrls.length > 0,
      networkUrls: address.networkUrls,
    });
  }

  /** Null where no HTTP server runs (the desktop app). */
  servedAddress(): ServedAddress | null {
    return this.served;
  }

  /**
   * Spends a pairing secret for a new paired client; null when it is unknown, used or expired.
   * `replaces`: the paired client the caller proved to be (a browser that paired before, opening a
   * new link after a restart): the new pairing takes its place, so one device is listed once.
   */
  pair(
    secret: string,
    label: string,
    surface: Surface,
    replaces: string | null = null,
  ): { clientId: string; clientToken: string } | null {
    const key = hash(secret).toString('hex');
    const expiresAt = this.secrets.get(key);
    this.secrets.delete(key);
    if (expiresAt === undefined || expiresAt <= this.now()) {
      this.audit('pairing_refused', {
        label,
        surface,
        reason: expiresAt === undefined ? 'unknown or used' : 'expired',
      });
      return null;
    }
    const previous = replaces === null ? undefined : this.clients.get(replaces);
    const replaced = previous?.paired && !previous.local ? previous.clientId : null;
    if (replaced !== null) {
      this.clients.delete(replaced);
      this.options.store?.revokePairedClient(replaced, this.now());
    }
    const issued = this.add(`${surface}-${newId()}`, surface, label, true);
    const client = this.clients.get(issued.clientId)!;
    this.options.store?.savePairedClient({
      clientId: client.clientId,
      label,
      surface,
      tokenHash: client.tokenHash.toString('hex'),
      pairedAt: client.registeredAt,
      revokedAt: null,
    });
    this.audit('client_paired', {
      clientId: client.clientId,
      label,
      surface,
      ...(replaced !== null ? { replaces: replaced } : {}),
    });
    return issued;
  }

  /** The client a token proves, seen now; null for an unknown id or a wrong token. */
  identify(clientId: string | null, token: string | null): ClientInfo | null {
    if (!clientId || !token) return null;
    const client = this.clients.get(clientId);
    if (!client || !timingSafeEqual(client.tokenHash, hash(token))) return null;
    if (this.stale(client)) {
      this.clients.delete(clientId);
      return null;
    }
    client.lastSeenAt = this.now();
    return this.info(client);
  }

  /** Counts an open event stream of a client; call the returned function when it closes. */
  streamOpened(clientId: string): () => void {
    const client = this.clients.get(clientId);
    if (!client) return () => {};
    client.streams++;
    return () => {
      client.streams--;
      client.lastSeenAt = this.now();
    };
  }

  list(): ClientInfo[] {
    this.dropStaleUnpaired();
    return [...this.clients.values()].map((c) => this.info(c));
  }

  /** Forgets a client; a paired one is marked revoked in the store. False when there is none. */
  revoke(clientId: string, by: string | null): boolean {
    const client = this.clients.get(clientId);
    if (!client || client.local) return false;
    this.clients.delete(clientId);
    if (client.paired) this.options.store?.revokePairedClient(clientId, this.now());
    this.audit('client_revoked', { clientId, label: client.label, paired: client.paired, by });
    return true;
  }

  /**
   * Voters for consensus: the people present now (paired, seen lately or listening, and the
   * desktop). Snapshotted by the mediator at issue time.
   */
  voterIds(): string[] {
    const now = this.now();
    return [...this.clients.values()]
      .filter((c) => c.paired && (c.local || c.streams > 0 || now - c.lastSeenAt <= PRESENCE_MS))
      .map((c) => c.clientId);
  }

  private add(clientId: string, surface: Surface, label: string, paired: boolean, local = false) {
    const clientToken = newSecret();
    const now = this.now();
    this.clients.set(clientId, {
      clientId,
      label,
      surface,
      paired,
      registeredAt: now,
      lastSeenAt: now,
      tokenHash: hash(clientToken),
      local,
      streams: 0,
    });
    return { clientId, clientToken };
  }

  private dropStaleUnpaired(): void {
    for (const [id, c] of this.clients) if (this.stale(c)) this.clients.delete(id);
  }

  /** An unpaired client unseen for a day is forgotten. */
  private stale(c: Client): boolean {
    return !c.paired && c.streams === 0 && this.now() - c.lastSeenAt > UNPAIRED_TTL_MS;
  }

  /** The fields named here and no others: the token's hash and the streams stay inside. */
  private info({ clientId, label, surface, paired, registeredAt, lastSeenAt }: Client): ClientInfo {
    return { clientId, label, surface, paired, registeredAt, lastSeenAt };
  }
}
