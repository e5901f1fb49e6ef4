// Owns talking HTTP: undici through the dispatcher of each request's route (support/transport/dispatcher.ts:
// direct or through the environment's proxy), JSON in and out, a precise per-request deadline and
// transient-failure retries. Each finished attempt is published (redacted) on the exchange channel
// (support/transport/exchanges.ts) for whoever observes it: the client itself knows nothing of
// reports, recordings or counters. Non-2xx answers are returned, never thrown: judging them is the
// spec's job. undici is imported from its public entry only: its internal files may change in any release.
import { request as undiciRequest } from 'undici';
import type { Credentials } from '../run/config.js';
import { describeProxy, dispatcherFor, routeFor } from './dispatcher.js';
import { publishExchange, type HttpExchange } from './exchanges.js';
import { networkSetupError, setupReason } from './network-errors.js';
import { redact } from './redact.js';
import { Pace, type PaceState } from './pace.js';
import {
  classifyFailure,
  isThrottled,
  parseRetryAfter,
  RETRY_POLICY,
  retryDecision,
  type RetryPolicy,
  type TransportFailure,
} from './retry.js';
import { NotSentError, workEnded } from './work.js';

export type { HttpExchange } from './exchanges.js';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ApiResponse<T = unknown> {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: T;
  text: string;
  url: string;
  /** Every attempt behind this response, already redacted (safe to print). */
  exchanges: HttpExchange[];
  /** When the answer had arrived, in epoch ms of the client's clock: the acknowledgement of a write. */
  receivedAt: number;
}

export interface TokenSource {
  accessToken(): Promise<string>;
  renew(): Promise<string>;
}

export type Auth =
  | { kind: 'bearer'; tokens: TokenSource }
  | { kind: 'basic'; credentials: Credentials }
  | { kind: 'none' }
  | { kind: 'raw'; authorization: string };

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** A body sent exactly as written, with its content type (malformed or non-JSON input on purpose). */
  raw?: { contentType: string; text: string };
  query?: Record<string, string>;
  headers?: Record<string, string>;
  auth?: Auth;
  timeoutMs?: number;
  /** What the caller is doing, e.g. "Request token"; carried on the published exchanges. */
  purpose?: string;
  /** Catalogue operation id (op1, op3, ...), carried on the published exchanges. */
  operation?: string;
}

// ---------------------------------------------------------------------------------------------

/** Nothing answered (refused, DNS, deadline, reset) after the retries the policy allows. */
export class TargetUnavailableError extends Error {
  override readonly name = 'TargetUnavailableError';
  constructor(
    readonly host: string,
    readonly failure: TransportFailure,
    readonly attempts: number,
    readonly exchanges: HttpExchange[],
    detail: string,
  ) {
    super(`${host} did not answer (${failure}) after ${attempts} attempt(s): ${detail}`);
  }
}

/**
 * The target still throttled the request (429, or 503 with Retry-After) when its deadline came: it
 * protects itself from this client's rate, which says nothing about the contract. The message says
 * how fast the client was held to, for how long, and what to lower.
 */
export class TargetThrottledError extends Error {
  override readonly name = 'TargetThrottledError';
  constructor(
    readonly host: string,
    readonly attempts: number,
    readonly elapsedMs: number,
    readonly pace: PaceState,
    readonly exchanges: HttpExchange[],
    request: string,
    reason: string,
    /**
     * The last throttling answer to this request; undefined when it was never sent (another caller's Retry-After
     * outlasted its deadline).
     */
    readonly status?: number,
  ) {
    const answered = status === undefined ? `held ${request} back` : `still answered ${status} to ${request}`;
    super(
      `Target throttled: ${host} ${answered} after ${attempts} attempt(s) in ${seconds(elapsedMs)} (${reason}). ` +
        `${heldTo(pace)}`,
    );
  }
}

/**
 * A duration as the throttling messages print it (`2.5 s`), that of a test out of time (support/evidence/test-time.ts)
 * among them.
 */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** A rate as its reader would set it: a policy of one request a minute is 0.017, not 0.0. */
const perSecond = (rps: number): string => (rps < 1 ? rps.toPrecision(2) : rps.toFixed(1));

function heldTo(pace: PaceState): string {
  const ceiling = pace.ceilingRps === undefined ? 'CONTRACT_MAX_RPS not set' : `CONTRACT_MAX_RPS=${pace.ceilingRps}`;
  const rate =
    pace.rps === undefined
      ? `This client was not held to a rate (${ceiling})`
      : `This client was held to ${perSecond(pace.rps)} requests a second (${ceiling})`;
  const lower = pace.rps === undefined ? 'Set CONTRACT_MAX_RPS' : `Set CONTRACT_MAX_RPS below ${perSecond(pace.rps)}`;
  return (
    `${rate} and was throttled ${pace.throttledAnswers} time(s) over the last ${seconds(pace.throttledForMs ?? 0)}. ` +
    `${lower} (or CONTRACT_TESTS_AT_ONCE lower), or run when the sandbox is less busy.`
  );
}

/** The deadline of one request unless the caller sets one (CONTRACT_REQUEST_TIMEOUT_MS reads its default from here). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

interface Attempt {
  exchange: HttpExchange;
  response?: ApiResponse;
  failure?: TransportFailure;
  /** What undici threw, for a failure named by its cause (kept in this process, never published). */
  error?: unknown;
}

export class ApiClient {
  private readonly baseUrl: string;
  private readonly auth: Auth;
  private readonly requestTimeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly pace: Pace;
  private readonly addressSetting: string;

  constructor(options: {
    baseUrl: string;
    auth?: Auth;
    requestTimeoutMs?: number;
    /** How long one request (its retries and waits included) may take; default the policy's `maxTotalMs`. */
    deadlineMs?: number;
    policy?: RetryPolicy;
    clock?: Clock;
    random?: () => number;
    /**
     * The pace of the client these requests are sent for (support/transport/pace.ts `sharedPace`); default one of this
     * client's own.
     */
    pace?: Pace;
    /** The configuration variable holding the address, named when a TLS failure says what to fix. */
    addressSetting?: string;
  }) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.addressSetting = options.addressSetting ?? 'the configured address';
    this.auth = options.auth ?? { kind: 'none' };
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const policy = options.policy ?? RETRY_POLICY;
    this.policy = options.deadlineMs === undefined ? policy : { ...policy, maxTotalMs: options.deadlineMs };
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.pace = options.pace ?? new Pace(this.clock);
  }

  async request<T = unknown>(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const auth = options.auth ?? this.auth;
    const url = this.resolve(pathOrUrl, options.query);
    const first = await this.withRetries(method.toUpperCase(), url, options, auth);
    if (first.status !== 401 || auth.kind !== 'bearer') return first as ApiResponse<T>;
    // The token may have been revoked or expired early: renew once and repeat once. A second
    // 401 is the answer.
    await auth.tokens.renew();
    const second = await this.withRetries(method.toUpperCase(), url, options, auth, first.exchanges);
    return second as ApiResponse<T>;
  }

  private resolve(pathOrUrl: string, query: Record<string, string> | undefined): string {
    const url = new URL(
      /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${this.baseUrl}/${pathOrUrl.replace(/^\/+/, '')}`,
    );
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.append(key, value);
    return url.toString();
  }

  private async withRetries(
    method: string,
    url: string,
    options: RequestOptions,
    auth: Auth,
    earlier: HttpExchange[] = [],
  ): Promise<ApiResponse> {
    const started = this.clock.now();
    const history = [...earlier];
    // When the last answer throttled this request: the wait for its Retry-After is the target's rate too.
    let throttledAt: number | undefined;
    // A throttled request's deadline runs from its first sending: its turn behind the run's other
    // requests is the run's own queue, not the target's refusal.
    let firstSentAt: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const endedBefore = notSent(method, url);
      if (endedBefore) throw endedBefore;
      // The headers (a token renewal among them, itself a request of this client) come before a
      // place at the pace: a request holding a place must never wait for another that needs one.
      const headers = await this.headersFor(auth, options);
      const held = await this.pace.acquire((firstSentAt ?? this.clock.now()) + this.policy.maxTotalMs);
      if (held === false) {
        const { host, pathname } = new URL(url);
        const waitMs = this.pace.pausedUntilMs() - this.clock.now();
        const deadline = `the request's ${this.policy.maxTotalMs} ms deadline`;
        const reason = `not sent: the target asked this client to wait ${seconds(waitMs)} more, past ${deadline}`;
        throw new TargetThrottledError(
          host,
          attempt - 1,
          this.clock.now() - started,
          this.pace.state(),
          history,
          `${method} ${pathname}`,
          reason,
          history.at(-1)?.status ?? undefined,
        );
      }
      // The test may have ended while the request waited for its turn: its place goes unused.
      const endedWhileWaiting = notSent(method, url);
      if (endedWhileWaiting) {
        this.pace.finished();
        throw endedWhileWaiting;
      }
      const sentAt = this.clock.now();
      firstSentAt ??= sentAt;
      let result: Attempt | undefined;
      let retryAfterMs: number | undefined;
      let throttled = false;
      try {
        result = await this.attempt(
          method,
          url,
          options,
          headers,
          earlier.length + attempt,
          throttledAt === undefined ? held : sentAt - throttledAt,
        );
        retryAfterMs = this.retryAfter(result.response);
        throttled = isThrottled(this.policy, result.response?.status, retryAfterMs);
      } finally {
        const answer = result?.response;
        this.pace.finished(answer && { sentAt, throttled, retryAfterMs });
      }
      history.push(result.exchange);
      const status = result.response?.status;
      const decision = retryDecision(this.policy, {
        method,
        attempt,
        status,
        error: result.failure,
        retryAfterMs,
        elapsedMs: this.clock.now() - firstSentAt,
        random: this.random(),
      });
      if (!decision.retry) {
        if (decision.throttled) {
          const { pathname } = new URL(url);
          throw new TargetThrottledError(
            new URL(url).host,
            attempt,
            this.clock.now() - started,
            this.pace.state(),
            history,
            `${method} ${pathname}`,
            decision.reason,
            status,
          );
        }
        if (result.response) return { ...result.response, exchanges: history };
        if (result.failure === 'setup') throw this.setupError(url, result.error);
        throw new TargetUnavailableError(
          new URL(url).host,
          result.failure ?? 'other',
          attempt,
          history,
          `${method} ${new URL(url).pathname}: ${result.exchange.error}; ${decision.reason}`,
        );
      }
      throttledAt = throttled ? this.clock.now() : undefined;
      await this.clock.sleep(decision.delayMs);
    }
  }

  private retryAfter(response: ApiResponse | undefined): number | undefined {
    return parseRetryAfter(response?.headers['retry-after'], this.clock.now());
  }

  private async attempt(
    method: string,
    url: string,
    options: RequestOptions,
    headers: Record<string, string>,
    attempt: number,
    pacedMs: number,
  ): Promise<Attempt> {
    const started = this.clock.now();
    const exchange: HttpExchange = {
      method,
      url,
      status: null,
      durationMs: 0,
      pacedMs,
      requestHeaders: headers,
      requestBody: options.form ?? options.json ?? options.raw?.text,
      responseHeaders: {},
      attempt,
      operation: options.operation,
      purpose: options.purpose,
    };
    let result: Attempt;
    // Outside the try: a proxy variable that is no address is a setting to fix, not a failed attempt.
    const dispatcher = dispatcherFor(new URL(url));
    try {
      const answer = await undiciRequest(url, {
        dispatcher,
        method: method as 'GET',
        headers,
        body: bodyText(options),
        // undici's own timers have about 1 s resolution; the signal is precise and also
        // covers reading the body.
        signal: AbortSignal.timeout(options.timeoutMs ?? this.requestTimeoutMs),
      });
      const text = await answer.body.text();
      const responseHeaders = flattenHeaders(answer.headers);
      const response: ApiResponse = {
        status: answer.statusCode,
        ok: answer.statusCode >= 200 && answer.statusCode < 300,
        headers: responseHeaders,
        body: parseBody(text),
        text,
        url,
        exchanges: [],
        receivedAt: this.clock.now(),
      };
      Object.assign(exchange, { status: response.status, responseHeaders, responseBody: response.body });
      result = { exchange, response };
    } catch (error) {
      const failure = classifyFailure(error);
      const route = routeFor(new URL(url));
      const via = route.kind === 'proxy' ? ` (through the proxy ${describeProxy(route.proxy)})` : '';
      exchange.error = `${failure}: ${error instanceof Error ? error.message : String(error)}${via}`;
      result = { exchange, failure, error };
    }
    exchange.durationMs = this.clock.now() - started;
    result.exchange = redact(exchange);
    publishExchange(result.exchange);
    return result;
  }

  private setupError(url: string, error: unknown): Error {
    const reason = setupReason(error);
    const target = new URL(url);
    return reason ? networkSetupError(reason, error, target, routeFor(target), this.addressSetting) : (error as Error);
  }

  private async headersFor(auth: Auth, options: RequestOptions): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      // The documentation: every operation except token retrieval sends Content-Type:
      // application/json, bodyless GETs included.
      'content-type':
        options.raw?.contentType ??
        (options.form !== undefined ? 'application/x-www-form-urlencoded' : 'application/json'),
    };
    const authorization = await authorizationFor(auth);
    if (authorization !== undefined) headers.authorization = authorization;
    for (const [key, value] of Object.entries(options.headers ?? {})) headers[key.toLowerCase()] = value;
    return headers;
  }
}

/** The error for a request whose work (a test) has ended (support/transport/work.ts); undefined while it goes on. */
function notSent(method: string, url: string): NotSentError | undefined {
  const ended = workEnded();
  return ended === undefined ? undefined : new NotSentError(`${method} ${new URL(url).pathname}`, ended);
}

async function authorizationFor(auth: Auth): Promise<string | undefined> {
  switch (auth.kind) {
    case 'bearer':
      return `Bearer ${await auth.tokens.accessToken()}`;
    case 'basic':
      return basicAuthorization(auth.credentials);
    case 'raw':
      return auth.authorization;
    case 'none':
      return undefined;
  }
}

/** HTTP Basic credentials exactly as documented: base64 of `<CLIENT_ID>:<CLIENT_SECRET>`. */
export function basicAuthorization(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
}

function bodyText(options: RequestOptions): string | undefined {
  if (options.raw !== undefined) return options.raw.text;
  if (options.form !== undefined) return new URLSearchParams(options.form).toString();
  return options.json !== undefined ? JSON.stringify(options.json) : undefined;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

// Parsed whenever it parses, whatever the content-type says: the documentation shows no
// content-types, and a JSON body mislabelled as text should still be inspectable.
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
