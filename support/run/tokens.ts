// Owns the documented token request and the token source that renews it (OAuth 2.0 client credentials).
// OAuth 2.0 client credentials exactly as documented, and the token source the HTTP client
// uses. One token per client per run: global setup requests it and hands it to the workers,
// which renew it only when it is about to expire or the target answers 401.
import { CLIENT_VARIABLES, type CredentialVariables, type Credentials } from './config.js';
import {
  ApiClient,
  TargetUnavailableError,
  systemClock,
  type ApiResponse,
  type Clock,
  type TokenSource,
} from '../transport/http.js';
import { sharedPace } from '../transport/pace.js';
import { RETRY_POLICY } from '../transport/retry.js';
import { registerSecret } from '../transport/redact.js';
import { workOfTheRun } from '../transport/work.js';
import { expectSchema, schemaErrors } from '../readings/schemas.js';

export const TOKEN_PATH = '/sandbox/v1/token.oauth2';

export interface IssuedToken {
  accessToken: string;
  tokenType?: string;
  /** Epoch milliseconds when the answer arrived. */
  issuedAt: number;
  /** Epoch milliseconds, from `expires_in`; undefined when the service does not say. */
  expiresAt?: number;
}

/**
 * Why no token came. `unreachable`: nothing answered; `unavailable`: the service answered that it
 * is unavailable (502, 503, 504) however often it was asked. A service that throttles the client
 * is neither: that is a TargetThrottledError (support/transport/http.ts), as for any request.
 */
export type TokenFailure = 'rejected' | 'unreachable' | 'unavailable' | 'server' | 'malformed';

export class TokenError extends Error {
  override readonly name = 'TokenError';
  constructor(
    readonly reason: TokenFailure,
    readonly authUrl: string,
    message: string,
    readonly status?: number,
    /** The configuration variables the message tells the reader to check. */
    readonly variables: readonly string[] = TOKEN_SERVICE_VARIABLES,
  ) {
    super(message);
  }
}

const TOKEN_SERVICE_VARIABLES = ['CONTRACT_AUTH_URL', 'CONTRACT_BASE_URL'] as const;

export interface TokenRequestOptions {
  requestTimeoutMs?: number;
  clock?: Clock;
  /**
   * Where these credentials were configured, so a rejection names the right variables (the first client's by default).
   */
  credentialVariables?: CredentialVariables;
  /** What the request is for, on its published exchange (default "Request token"). */
  purpose?: string;
  /** The scope asked for: the documented bci unless a screening token is wanted (CONTRACT_SCREENING_SCOPE). */
  scope?: string;
  /** CONTRACT_MAX_RPS: the client's token requests share its pace with its API calls. */
  maxRps?: number;
  /** How long the request may take, throttled retries included (CONTRACT_AVAILABILITY_TIMEOUT_MS in a run). */
  deadlineMs?: number;
}

/** The scope the documentation's token request sends. */
export const DOCUMENTED_SCOPE = 'bci';
const SCREENING_SCOPE_VARIABLE = 'CONTRACT_SCREENING_SCOPE';

/** POST {auth_url}/sandbox/v1/token.oauth2 with the client credentials grant and scope bci (or the one asked for). */
export async function requestToken(
  authUrl: string,
  credentials: Credentials,
  options: TokenRequestOptions = {},
): Promise<{ token: IssuedToken; response: ApiResponse }> {
  registerCredentials(credentials);
  const clock = options.clock ?? systemClock;
  const url = `${authUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
  const client = new ApiClient({
    baseUrl: authUrl,
    auth: { kind: 'basic', credentials },
    requestTimeoutMs: options.requestTimeoutMs,
    deadlineMs: options.deadlineMs,
    clock,
    pace: sharedPace(new URL(url).origin, credentials.clientId, clock, options.maxRps),
    addressSetting: 'CONTRACT_AUTH_URL (or CONTRACT_BASE_URL, its default)',
  });
  const form = { grant_type: 'client_credentials', scope: options.scope ?? DOCUMENTED_SCOPE };
  expectSchema('token-request', form);
  let response: ApiResponse;
  try {
    response = await client.request('POST', url, {
      form,
      purpose: options.purpose ?? 'Request token',
      operation: 'token',
    });
  } catch (error) {
    if (error instanceof TargetUnavailableError) {
      throw new TokenError(
        'unreachable',
        url,
        unavailable(`${error.message}. Check CONTRACT_AUTH_URL (or CONTRACT_BASE_URL, its default) and the network.`),
      );
    }
    throw error;
  }
  return {
    token: issuedToken(response, url, clock, options.credentialVariables ?? CLIENT_VARIABLES, options.scope),
    response,
  };
}

// "Token service unreachable" and "Token service unavailable" are what allurerc.mjs files under
// "Target unavailable"; the phrase in brackets is the one a person reads for.
const unavailable = (detail: string, reason: 'unreachable' | 'unavailable' = 'unreachable'): string =>
  `Token service ${reason} (target unavailable): ${detail}`;

function issuedToken(
  response: ApiResponse,
  url: string,
  clock: Clock,
  credentialVariables: CredentialVariables,
  scope?: string,
): IssuedToken {
  // The client has already retried these answers as far as its policy allows (a throttling answer
  // until its deadline, and then it throws): a token service that still says it is unavailable is
  // down, which is no reason to doubt the configuration.
  if (RETRY_POLICY.retryStatuses.includes(response.status)) {
    throw new TokenError(
      'unavailable',
      url,
      unavailable(
        `${new URL(url).host} still answered ${response.status} after ${response.exchanges.length} attempt(s) of ` +
          `POST ${TOKEN_PATH}; try again later.`,
        'unavailable',
      ),
      response.status,
    );
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    const variables = [
      credentialVariables.id,
      credentialVariables.secret,
      ...(scope === undefined ? [] : [SCREENING_SCOPE_VARIABLE]),
    ];
    throw new TokenError(
      'rejected',
      url,
      scope === undefined
        ? `Token request rejected by ${url} (status ${response.status}): the client credentials were not accepted. ` +
            `Check ${credentialVariables.id} and ${credentialVariables.secret} (the sandbox credentials of the ` +
            'registered organization).'
        : `Token request for scope ${JSON.stringify(scope)} rejected by ${url} (status ${response.status}). ` +
            `Check ${SCREENING_SCOPE_VARIABLE} (the screening scope the vendor gave this client), or unset it to ` +
            `screen with the bci token; and ${credentialVariables.id} and ${credentialVariables.secret}.`,
      response.status,
      variables,
    );
  }
  if (!response.ok) {
    throw new TokenError(
      'server',
      url,
      `Token service at ${url} failed with status ${response.status}. ` +
        'Check CONTRACT_AUTH_URL; if it is right, the token service is failing: try again later.',
      response.status,
    );
  }
  const problems = schemaErrors('token-response', response.body);
  if (problems.length > 0) {
    throw new TokenError(
      'malformed',
      url,
      `Token service at ${url} answered ${response.status} without a string access_token (${problems.join('; ')}). ` +
        'Check that CONTRACT_AUTH_URL points at the token service.',
      response.status,
    );
  }
  const body = response.body as Record<string, unknown> & { access_token: string };
  const accessToken = body.access_token;
  registerSecret(accessToken);
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    tokenType: typeof body.token_type === 'string' ? body.token_type : undefined,
    issuedAt: clock.now(),
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? clock.now() + expiresIn * 1000 : undefined,
  };
}

/** Registers a client secret and its Basic form with the redaction point, where the credentials are read. */
export function registerCredentials(credentials: Credentials): void {
  registerSecret(credentials.clientSecret);
  // The Basic credential encodes the secret; blank it wherever it is echoed whole.
  registerSecret(Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64'));
}

/**
 * When a token is renewed, as data. The lifetime is whatever the token service says (`expires_in`:
 * an hour, or twenty seconds), so renewal starts at a share of it, never a fixed time ahead: a fixed
 * minute would make every token shorter than a minute "about to expire" on every call.
 */
export const RENEWAL = {
  /** Renew once this share of the lifetime has passed: the rest covers requests in flight and clock skew. */
  atShareOfLifetime: 0.8,
  /**
   * At most one token request per worker in this share of the lifetime, renewals after a 401
   * included: a service that refuses fresh tokens must not get a token request per API call.
   */
  minShareBetweenRequests: 0.5,
  /** The same floor when the service gives no lifetime. */
  minMsBetweenRequests: 5_000,
};

function minGapBetweenRequests(token: IssuedToken): number {
  return token.expiresAt === undefined
    ? RENEWAL.minMsBetweenRequests
    : (token.expiresAt - token.issuedAt) * RENEWAL.minShareBetweenRequests;
}

/** A token source that starts from an already-issued token and renews it before expiry and on demand. */
export class TokenProvider implements TokenSource {
  private current: IssuedToken | undefined;
  private renewal: Promise<string> | undefined;
  /** When this provider last asked for a token itself (the run's first token came from global setup). */
  private lastRequestAt: number | undefined;
  private readonly clock: Clock;

  /**
   * @param issued the run's token, fetched once by global setup; without it the first use requests one.
   */
  constructor(
    private readonly authUrl: string,
    private readonly credentials: Credentials,
    issued?: IssuedToken,
    private readonly options: TokenRequestOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.current = issued;
  }

  async accessToken(): Promise<string> {
    const token = this.current;
    if (token && !this.dueForRenewal(token)) return token.accessToken;
    return this.renewal ?? this.request();
  }

  /** The token was refused (401): a new one, unless this worker asked for one too recently. */
  renew(): Promise<string> {
    if (this.renewal) return this.renewal;
    const token = this.current;
    if (
      token &&
      this.lastRequestAt !== undefined &&
      this.clock.now() - this.lastRequestAt < minGapBetweenRequests(token)
    ) {
      return Promise.resolve(token.accessToken);
    }
    return this.request();
  }

  private dueForRenewal(token: IssuedToken): boolean {
    if (token.expiresAt === undefined) return false;
    return this.clock.now() - token.issuedAt >= (token.expiresAt - token.issuedAt) * RENEWAL.atShareOfLifetime;
  }

  /** One token request; concurrent callers share it, so no caller's end stops it (support/transport/work.ts). */
  private request(): Promise<string> {
    if (this.renewal) return this.renewal;
    this.lastRequestAt = this.clock.now();
    this.renewal = workOfTheRun(() => requestToken(this.authUrl, this.credentials, this.options))
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
