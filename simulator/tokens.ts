import { randomBytes } from 'node:crypto';
import type { SimulatorClock } from './clock.js';

interface IssuedToken {
  clientId: string;
  scope: string;
  expiresAt: number;
}

/** Whom a valid token was issued to, and for what. */
export interface TokenHolder {
  clientId: string;
  scope: string;
}

/** Opaque bearer tokens: random, so a client cannot derive or reuse anything from their content. */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();
  // Kept apart from `tokens`, which drops a token once it is found expired: an expired token
  // that leaked into a report is still a leak.
  private readonly everIssued: { accessToken: string; clientId: string }[] = [];
  issued = 0;

  constructor(
    private readonly clock: SimulatorClock,
    private readonly ttlSeconds: number,
  ) {}

  issue(clientId: string, scope = 'bci'): { accessToken: string; expiresIn: number } {
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { clientId, scope, expiresAt: this.clock.now() + this.ttlSeconds * 1000 });
    this.everIssued.push({ accessToken, clientId });
    this.issued += 1;
    return { accessToken, expiresIn: this.ttlSeconds };
  }

  /** Every token ever issued, expired ones included, with its client (the secret canary searches for them). */
  list(): { accessToken: string; clientId: string }[] {
    return [...this.everIssued];
  }

  /** The client the token was issued to and its scope, unless it is unknown or expired. */
  holderOf(accessToken: string): TokenHolder | undefined {
    const token = this.tokens.get(accessToken);
    if (!token) return undefined;
    if (token.expiresAt <= this.clock.now()) {
      this.tokens.delete(accessToken);
      return undefined;
    }
    return { clientId: token.clientId, scope: token.scope };
  }
}
