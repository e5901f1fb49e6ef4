// Owns the documented token request (OAuth 2.0 client credentials) and the token source that renews it. One token
// per client per run: global setup requests it, and workers renew it only near its expiry or after a 401.
import { CLIENT_VARIABLES, type CredentialVariables, type Credentials } from './config.js';
import { ApiClient, TargetUnavailableError, type TokenSource } from '../transport/http.js';
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../transport/clock.js';
import { sharedPace } from '../transport/pace.js';
import { RETRY_POLICY } from '../transport/retry.js';
import { registerSecret } from '../transport/redact.js';
import { expectSchema, schemaErrors } from '../readings/schemas.js';

export const TOKEN_PATH = '/sandbox/v1/token.oauth2';
export const DOCUMENTED_SCOPE = 'bci';
export const SCOPE_VARIABLE = 'CONTRACT_SCREENING_SCOPE';

export interface IssuedToken {
  accessToken: string;
  tokenType?: string;
  /** Epoch milliseconds: when the answer came, and when `expires_in` says it expires (undefined if it does not). */
  issuedAt: number;
  expiresAt?: number;
}

/** Why no token came (`unavailable`: 502, 503 or 504 after the retries); a throttle is a TargetThrottledError. */
export class TokenError extends Error {
  override readonly name = 'TokenError';
  constructor(
    readonly reason: 'rejected' | 'unreachable' | 'unavailable' | 'server' | 'malformed',
    message: string,
    readonly status?: number,
    /** The configuration variables the message tells the reader to check. */
    readonly variables: readonly string[] = ['CONTRACT_AUTH_URL', 'CONTRACT_BASE_URL'],
  ) {
    super(message);
  }
}

interface TokenRequestOptions {
  requestTimeoutMs?: number;
  clock?: Clock;
  /** Where the request goes instead of the network: an in-process simulator. */
  dispatcher?: Dispatcher;
  /** The jitter of its retries (Math.random by default). */
  random?: () => number;
  /** Where these credentials were configured, named when they are rejected (the first client's by default). */
  credentialVariables?: CredentialVariables;
  purpose?: string;
  scope?: string;
  /** CONTRACT_MAX_RPS: the client's token requests share its pace with its API calls. */
  maxRps?: number;
  /** How long the request may take, throttled retries included (CONTRACT_AVAILABILITY_TIMEOUT_MS in a run). */
  deadlineMs?: number;
}

/** HTTP Basic exactly as documented: base64 of `<CLIENT_ID>:<CLIENT_SECRET>`. */
const basic = ({ clientId, clientSecret }: Credentials) =>
  Buffer.from(`${clientId}:${clientSecret}`).toString('base64');

/** POST {auth_url}/sandbox/v1/token.oauth2 with the client credentials grant and scope bci (or the one asked for). */
export async function requestToken(authUrl: string, credentials: Credentials, options: TokenRequestOptions = {}) {
  registerCredentials(credentials);
  const { scope, clock = systemClock } = options;
  const url = `${authUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
  const client = new ApiClient({
    baseUrl: authUrl,
    auth: { kind: 'raw', authorization: `Basic ${basic(credentials)}` },
    requestTimeoutMs: options.requestTimeoutMs,
    deadlineMs: options.deadlineMs,
    clock,
    dispatcher: options.dispatcher,
    random: options.random,
    pace: sharedPace(new URL(url).origin, credentials.clientId, clock, options.maxRps),
    addressSetting: 'CONTRACT_AUTH_URL (or CONTRACT_BASE_URL, its default)',
  });
  const form = { grant_type: 'client_credentials', scope: scope ?? DOCUMENTED_SCOPE };
  expectSchema('token-request', form);
  const purpose = options.purpose ?? 'Request token';
  const response = await client
    .request('POST', url, { form, purpose, operation: 'token', token: true })
    .catch((error: unknown) => {
      if (!(error instanceof TargetUnavailableError)) throw error;
      // allurerc.mjs files this and the 'unavailable' below under "Target unavailable", by the words in brackets.
      const check = 'Check CONTRACT_AUTH_URL (or CONTRACT_BASE_URL, its default) and the network.';
      throw new TokenError('unreachable', `Token service unreachable (target unavailable): ${error.message}. ${check}`);
    });
  const { status } = response;
  const { id, secret } = options.credentialVariables ?? CLIENT_VARIABLES;
  // Retried as far as the policy allows: the service is down, which is no reason to doubt the configuration.
  if (RETRY_POLICY.retryStatuses.includes(status)) {
    const attempts = `${response.exchanges.length} attempt(s) of POST ${TOKEN_PATH}`;
    const message = `Token service unavailable (target unavailable): ${new URL(url).host} still answered ${status}`;
    throw new TokenError('unavailable', `${message} after ${attempts}; try again later.`, status);
  }
  if (status === 400 || status === 401 || status === 403) {
    const message =
      scope === undefined
        ? `Token request rejected by ${url} (status ${status}): the client credentials were not accepted. ` +
          `Check ${id} and ${secret} (the sandbox credentials of the registered organization).`
        : `Token request for scope ${JSON.stringify(scope)} rejected by ${url} (status ${status}). ` +
          `Check ${SCOPE_VARIABLE} (the screening scope the vendor gave this client), or unset it to ` +
          `screen with the bci token; and ${id} and ${secret}.`;
    const variables = scope === undefined ? [id, secret] : [id, secret, SCOPE_VARIABLE];
    throw new TokenError('rejected', message, status, variables);
  }
  if (!response.ok) {
    const check = 'Check CONTRACT_AUTH_URL; if it is right, the token service is failing: try again later.';
    throw new TokenError('server', `Token service at ${url} failed with status ${status}. ${check}`, status);
  }
  const problems = schemaErrors('token-response', response.body);
  if (problems.length > 0) {
    const message =
      `Token service at ${url} answered ${status} without a string access_token (${problems.join('; ')}). ` +
      'Check that CONTRACT_AUTH_URL points at the token service.';
    throw new TokenError('malformed', message, status);
  }
  const body = response.body as { access_token: string; token_type?: unknown; expires_in?: unknown };
  registerSecret(body.access_token);
  const expiresIn = Number(body.expires_in);
  const token: IssuedToken = {
    accessToken: body.access_token,
    tokenType: typeof body.token_type === 'string' ? body.token_type : undefined,
    issuedAt: clock.now(),
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? clock.now() + expiresIn * 1000 : undefined,
  };
  return { token, response };
}

/** Registers a client secret and its Basic form with the redaction point, where the credentials are read. */
export function registerCredentials(credentials: Credentials): void {
  registerSecret(credentials.clientSecret);
  registerSecret(basic(credentials));
}

// Renewal goes by shares of the lifetime (`expires_in`: an hour, or twenty seconds): a fixed time ahead would make
// every shorter token "about to expire" on every call. The share left after renewal covers requests in flight and clock
// skew; the least gap between token requests (401s included) keeps a refused token from costing one per API call.
const RENEWAL = { atShareOfLifetime: 0.8, minShareBetweenRequests: 0.5, minMsBetweenRequests: 5_000 };

/** This share of the token's lifetime in ms; `withoutLifetime` (by default never) when the service gave none. */
const lifetimeShare = ({ issuedAt, expiresAt }: IssuedToken, share: number, withoutLifetime = Infinity) =>
  expiresAt === undefined ? withoutLifetime : (expiresAt - issuedAt) * share;

/** A token source that starts from an already-issued token (the run's, from global setup) and renews it. */
export class TokenProvider implements TokenSource {
  private renewal: Promise<string> | undefined;
  private lastRequestAt: number | undefined;
  private readonly clock: Clock;

  constructor(
    private readonly authUrl: string,
    private readonly credentials: Credentials,
    /** The run's token, from global setup; without it the first use requests one. */
    private current?: IssuedToken,
    private readonly options: TokenRequestOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  accessToken(): Promise<string> {
    const token = this.current;
    return token && !this.due() ? Promise.resolve(token.accessToken) : this.request();
  }

  due(): boolean {
    const token = this.current;
    return !token || this.clock.now() - token.issuedAt >= lifetimeShare(token, RENEWAL.atShareOfLifetime);
  }

  /** The token was refused (401): a new one, unless this provider asked for one too recently. */
  renew(): Promise<string> {
    const token = this.current;
    const since = this.lastRequestAt === undefined || this.renewal ? Infinity : this.clock.now() - this.lastRequestAt;
    const recent = token && since < lifetimeShare(token, RENEWAL.minShareBetweenRequests, RENEWAL.minMsBetweenRequests);
    return recent ? Promise.resolve(token.accessToken) : this.request();
  }

  /** One token request, the run's own work: concurrent callers share it, so no caller's end stops it. */
  private request(): Promise<string> {
    if (this.renewal) return this.renewal;
    this.lastRequestAt = this.clock.now();
    this.renewal = requestToken(this.authUrl, this.credentials, this.options)
      .then(({ token }) => {
        this.current = token;
        return token.accessToken;
      })
      .finally(() => {
        this.renewal = undefined;
      });
    return this.renewal;
  }
}
