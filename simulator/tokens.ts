import { randomBytes } from 'node:crypto';
import type { SimulatorClock } from './clock.js';

interface IssuedToken {
  clientId: string;
  expiresAt: number;
}

/** Opaque bearer tokens: random, so a client cannot derive or reuse anything from their content. */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();
  issued = 0;

  constructor(
    private readonly clock: SimulatorClock,
    private readonly ttlSeconds: number,
  ) {}

  issue(clientId: string): { accessToken: string; expiresIn: number } {
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { clientId, expiresAt: this.clock.now() + this.ttlSeconds * 1000 });
    this.issued += 1;
    return { accessToken, expiresIn: this.ttlSeconds };
  }

  /** The client the token was issued to, unless it is unknown or expired. */
  clientOf(accessToken: string): string | undefined {
    const token = this.tokens.get(accessToken);
    if (!token) return undefined;
    if (token.expiresAt <= this.clock.now()) {
      this.tokens.delete(accessToken);
      return undefined;
    }
    return token.clientId;
  }
}
