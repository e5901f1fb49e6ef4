import { HttpError } from './errors.js';
import type { SimulatorClient } from './options.js';
import type { SimulatorState } from './state.js';
import type { TokenHolder } from './tokens.js';

function unauthorized(message: string, scheme: string): HttpError {
  return new HttpError(401, 'unauthorized', message, 'Authorization', { 'www-authenticate': scheme });
}

/** The client a bearer token was issued to, and its scope; 401 for a missing, malformed, unknown or expired token. */
export function bearerHolder(state: SimulatorState, authorization: string | undefined): TokenHolder {
  const token = /^Bearer ([\w\-.~+/]+=*)$/i.exec(authorization ?? '')?.[1];
  const holder = token === undefined ? undefined : state.tokens.holderOf(token);
  if (holder !== undefined) return holder;
  if (state.mutant('bearer-not-enforced')) return { clientId: state.options.clients[0].id, scope: 'bci' };
  throw unauthorized(
    token === undefined
      ? 'send Authorization: Bearer <access_token> from the token endpoint'
      : 'the bearer token is unknown or expired; request a new one',
    `Bearer error="invalid_token"`,
  );
}

function basicCredentials(authorization: string | undefined): SimulatorClient | undefined {
  const encoded = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The client whose HTTP Basic credentials are right; 401 otherwise. */
export function basicClient(state: SimulatorState, authorization: string | undefined): string {
  const sent = basicCredentials(authorization);
  const known = sent && state.options.clients.find((client) => client.id === sent.id);
  if (sent && known && (known.secret === sent.secret || state.mutant('wrong-secret-accepted'))) return known.id;
  throw unauthorized(
    sent ? 'unknown client id or wrong client secret' : 'send the client credentials with HTTP Basic authentication',
    'Basic realm="sandbox"',
  );
}

/**
 * Whom a request is from, as far as the rate limit cares: the client of its bearer token, or the
 * client id its HTTP Basic credentials claim (right secret or not); anonymous otherwise.
 */
export function claimedClient(state: SimulatorState, authorization: string | undefined): string {
  const token = /^Bearer ([\w\-.~+/]+=*)$/i.exec(authorization ?? '')?.[1];
  return (
    (token === undefined ? basicCredentials(authorization)?.id : state.tokens.holderOf(token)?.clientId) ??
    '(anonymous)'
  );
}
