import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Surface } from '../../../shared/domain';

/** Who is calling a command: established by the transport, never by the request body. */
export interface Caller {
  clientId: string | null;
  /** True when the caller presented the secret token issued with its client id. */
  identityProven: boolean;
  /** Stamped from the socket address (HTTP) or true for in-process surfaces (IPC, tray). */
  fromLoopback: boolean;
  surface: Surface;
  /** How the call arrived: over HTTP (browsers, remote), over IPC (desktop windows), or in-process. */
  transport: 'http' | 'ipc' | 'internal';
  /** Set when the caller holds a single-use approval link instead of the bearer token. */
  link?: { token: string; requestId: string };
}

interface RegisteredClient {
  clientId: string;
  label: string;
  surface: Surface;
  tokenHash: Buffer;
  registeredAt: number;
}

const hash = (token: string) => createHash('sha256').update(token).digest();

/**
 * Issues client ids with a secret token (proof of possession). The mediator's designated and
 * consensus policies count only votes whose token matched; a self-reported id proves nothing.
 */
export class ClientRegistry {
  private readonly clients = new Map<string, RegisteredClient>();

  constructor(private readonly now: () => number = Date.now) {}

  register(surface: Surface, label: string = surface, clientId?: string): { clientId: string; clientToken: string } {
    const id = clientId ?? `${surface}-${uuidv7()}`;
    const clientToken = randomBytes(32).toString('base64url');
    this.clients.set(id, { clientId: id, label, surface, tokenHash: hash(clientToken), registeredAt: this.now() });
    return { clientId: id, clientToken };
  }

  unregister(clientId: string): void {
    this.clients.delete(clientId);
  }

  verify(clientId: string | null, token: string | null): boolean {
    if (!clientId || !token) return false;
    const client = this.clients.get(clientId);
    if (!client) return false;
    return timingSafeEqual(client.tokenHash, hash(token));
  }

  surfaceOf(clientId: string): Surface | undefined {
    return this.clients.get(clientId)?.surface;
  }

  /** Voters for consensus: every registered client. Snapshotted by the mediator at issue time. */
  voterIds(): string[] {
    return [...this.clients.keys()];
  }
}
