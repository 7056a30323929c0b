// Windows toast buttons come back as `gatehouse://` protocol activations, which any web page could
// also open. So a button never names a request and an option: it carries a random single-use token
// that only this process knows, bound to one notification and one action.
import { randomBytes } from 'node:crypto';

export interface Activation {
  key: string;
  action: string;
}

export class ActivationTokens {
  private readonly byToken = new Map<string, Activation>();
  private readonly byKey = new Map<string, Set<string>>();

  /** A fresh unguessable token (128 bits) for this notification's action. */
  issue(key: string, action: string): string {
    const token = randomBytes(16).toString('base64url');
    this.byToken.set(token, { key, action });
    let tokens = this.byKey.get(key);
    if (!tokens) this.byKey.set(key, (tokens = new Set()));
    tokens.add(token);
    return token;
  }

  /** The activation of a token, once: every token of that notification is spent with it. */
  take(token: string): Activation | null {
    const activation = this.byToken.get(token);
    if (!activation) return null;
    this.revoke(activation.key);
    return activation;
  }

  /** The notification is gone: its buttons mean nothing any more. */
  revoke(key: string): void {
    for (const token of this.byKey.get(key) ?? []) this.byToken.delete(token);
    this.byKey.delete(key);
  }

  get size(): number {
    return this.byToken.size;
  }
}
