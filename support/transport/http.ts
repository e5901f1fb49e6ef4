// The HTTP client: talks, retries and publishes every attempt on the exchange channel. Non-2xx answers are
// returned, never thrown: judging them is the spec's job.
import { request as undiciRequest, type Dispatcher } from 'undici';
import { messageOf, NetworkSetupError } from './network-failures.js';
import { dispatcherFor, routeFor, viaProxy, type Route } from './proxy-routes.js';
import { publishExchange, type HttpExchange } from './exchanges.js';
import { redact } from './redact.js';
import { Pace } from './pace.js';
import { systemClock, timeoutOn, type Clock } from './clock.js';
import {
  classifyFailure,
  isThrottled,
  parseRetryAfter,
  RETRY_POLICY,
  retryDecision,
  type RetryPolicy,
  type TransportFailure,
} from './retry.js';

export interface ApiResponse<T = unknown> {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: T;
  text: string;
  url: string;
  /** Every attempt behind this response, redacted. */
  exchanges: HttpExchange[];
  /** When the answer arrived, on the client's clock: a write's acknowledgement. */
  receivedAt: number;
  /** When the attempt that got this answer left the client, after its turn at the pace, on the client's clock. */
  sentAt: number;
}

export interface TokenSource {
  accessToken(): Promise<string>;
  /** Whether `accessToken` would ask the token service first. */
  due(): boolean;
  renew(): Promise<string>;
}

export type Auth = { kind: 'bearer'; tokens: TokenSource } | { kind: 'none' } | { kind: 'raw'; authorization: string };

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** A body sent exactly as written, with its content type (malformed or non-JSON input on purpose). */
  raw?: { contentType: string; text: string };
  query?: Record<string, string>;
  auth?: Auth;
  purpose?: string;
  operation?: string;
  /** A token request: what queued requests wait for goes before them (support/transport/pace.ts). */
  token?: boolean;
  /**
   * A later page of a list read under way: it goes before new requests (behind retries), so that a read of many pages
   * waits its turn behind the queue once rather than once a page.
   */
  continues?: boolean;
}

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

/** The target still throttled the request at its deadline: its rate, not the contract, and what to lower. */
export class TargetThrottledError extends Error {
  override readonly name = 'TargetThrottledError';
  constructor(
    readonly host: string,
    readonly attempts: number,
    readonly elapsedMs: number,
    readonly pace: ReturnType<Pace['state']>,
    readonly exchanges: HttpExchange[],
    request: string,
    reason: string,
    /** The last throttling answer; undefined when the request was never sent (a pause outlasted its deadline). */
    readonly status?: number,
  ) {
    const answered = status === undefined ? `held ${request} back` : `still answered ${status} to ${request}`;
    const rate = pace.rps === undefined ? undefined : perSecond(pace.rps);
    const ceiling = pace.ceilingRps === undefined ? 'CONTRACT_MAX_RPS not set' : `CONTRACT_MAX_RPS=${pace.ceilingRps}`;
    super(
      `Target throttled: ${host} ${answered} after ${attempts} attempt(s) in ${seconds(elapsedMs)} (${reason}). ` +
        `This client was ${rate === undefined ? 'not held to a rate' : `held to ${rate} requests a second`} ` +
        `(${ceiling}) and was throttled ${pace.throttledAnswers} time(s) over the last ` +
        `${seconds(pace.throttledForMs ?? 0)}. Set CONTRACT_MAX_RPS${rate === undefined ? '' : ` below ${rate}`} ` +
        '(or CONTRACT_TESTS_AT_ONCE lower), or run when the sandbox is less busy.',
    );
  }
}

/** A duration as the throttling messages print it (`2.5 s`), that of a test out of time among them. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** A rate as its reader would set it: a policy of one request a minute is 0.017, not 0.0. */
const perSecond = (rps: number): string => (rps < 1 ? rps.toPrecision(2) : rps.toFixed(1));

/**
 * The work a client's requests are sent for: a test's (support/evidence/test-time.ts), which its client is given
 * (`forWork`), or none, the run's own (cleanup, token renewal), which no test's end stops. Each wait method starts a
 * wait and returns the function that ends it.
 */
export interface Work {
  /** The test's name, for the bench's wait log. */
  readonly name: string;
  /**
   * Why the work has ended, undefined while it goes on: a test that failed or was cancelled would otherwise go on
   * sending (a Promise.all's other branch polls on), spending the rate others and cleanups need.
   */
  ended(): string | undefined;
  /** Queued, unrefused, for the client's pace behind other requests: no time of the test's own. */
  queued(): () => void;
  /** Waiting because the target refused this request (429, or 503 with Retry-After): the target's time. */
  refused(): () => void;
  /**
   * A list read past its first page, until it ends (its requests, their turns and refusals, the reading of each page):
   * the list's length, which the run's bound holds, not the test's own time.
   */
  laterPages(): () => void;
  /** One finished attempt, for the test's account. */
  sent(exchange: HttpExchange): void;
}

/** A request asked for by work that had already ended: nobody waits for its answer. */
export class NotSentError extends Error {
  override readonly name = 'NotSentError';
  constructor(request: string, reason: string) {
    super(`${request} not sent: ${reason}`);
  }
}

/** The deadline of one request unless the caller sets one (CONTRACT_REQUEST_TIMEOUT_MS's default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** One attempt: its exchange, and the answer or how it failed (`error`, what undici threw, is never published). */
type Attempt = { exchange: HttpExchange } & (
  { response: ApiResponse; failure?: undefined } | { response?: undefined; failure: TransportFailure; error: unknown }
);

export interface ClientOptions {
  baseUrl: string;
  auth?: Auth;
  requestTimeoutMs?: number;
  /** How long one request, its retries and waits included, may take (the policy's `maxTotalMs`). */
  deadlineMs?: number;
  policy?: RetryPolicy;
  clock?: Clock;
  /** The pace of the client (`sharedPace`); default one of this client's own. */
  pace?: Pace;
  /** The variable holding the address, named when a TLS failure says what to fix. */
  addressSetting?: string;
  /** What its requests are sent for; none: the run's own work. */
  work?: Work;
  /** Where its requests go instead of the network: an in-process simulator (support/transport/proxy-routes.ts). */
  dispatcher?: Dispatcher;
  /** The jitter of its retries' backoff: Math.random, or a seeded one that a simulated run replays. */
  random?: () => number;
}

export class ApiClient {
  private readonly policy: RetryPolicy;
  /** What the client reads and sleeps on, which the waits of its verbs share. */
  readonly clock: Clock;
  private readonly pace: Pace;
  /** What this client's requests are sent for (`forWork`); undefined: the run's own work. */
  readonly work: Work | undefined;

  constructor(private readonly options: ClientOptions) {
    const policy = options.policy ?? RETRY_POLICY;
    this.policy = options.deadlineMs === undefined ? policy : { ...policy, maxTotalMs: options.deadlineMs };
    this.clock = options.clock ?? systemClock;
    this.pace = options.pace ?? new Pace(this.clock);
    this.work = options.work;
  }

  /** The same client, its pace and tokens shared, sending for `work` (a test's), or for the run with none. */
  forWork(work: Work | undefined): ApiClient {
    return new ApiClient({ ...this.options, pace: this.pace, clock: this.clock, work });
  }

  async request<T = unknown>(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const auth = options.auth ?? this.options.auth ?? { kind: 'none' };
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const url = new URL(/^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${base}/${pathOrUrl.replace(/^\/+/, '')}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.append(key, value);
    const send = (earlier: HttpExchange[]) =>
      this.withRetries(method.toUpperCase(), url, { ...options, auth }, earlier) as Promise<ApiResponse<T>>;
    const first = await send([]);
    if (first.status !== 401 || auth.kind !== 'bearer') return first;
    // The token may have been revoked or expired early: renew once and repeat once; a second 401 is the answer.
    await auth.tokens.renew();
    return send(first.exchanges);
  }

  private async withRetries(method: string, url: URL, options: RequestOptions, earlier: HttpExchange[]) {
    const started = this.clock.now();
    const { host } = url;
    const request = `${method} ${url.pathname}`;
    const { contentType, body } = payload(options);
    const history = [...earlier];
    // A proxy variable that is no address is a setting to fix, not a failed attempt.
    const route = routeFor(url);
    const throttledError = (attempts: number, reason: string, status?: number): TargetThrottledError => {
      const elapsedMs = this.clock.now() - started;
      return new TargetThrottledError(host, attempts, elapsedMs, this.pace.state(), history, request, reason, status);
    };
    // The deadline runs from the first sending: a turn behind the run's other requests is no refusal of the target.
    let firstSentAt: number | undefined;
    // When the last answer throttled this request: the wait for its Retry-After is the target's rate too.
    let throttledAt: number | undefined;
    let refusal: (() => void) | undefined;
    for (let attempt = 1; ; attempt++) {
      this.ensureWorkGoesOn(request);
      // A repeat with a renewed token goes first too: behind the queue the token could expire again.
      let retry = firstSentAt !== undefined || earlier.length > 0;
      let held: number | false;
      for (let turnsGivenBack = 0; ; turnsGivenBack++) {
        // The headers (a token renewal among them, itself a request of this client) come before a place at the
        // pace: a request holding a place must never wait for another that needs one. A renewal queues like one.
        const renewing = this.work?.queued();
        try {
          await this.headersFor(options.auth, contentType);
        } finally {
          renewing?.();
        }
        // Behind other requests, unrefused, the turn is the run's; after a refusal of its own, the target's.
        const waited = throttledAt === undefined ? this.work?.queued() : refusal;
        try {
          const deadline = (firstSentAt ?? this.clock.now()) + this.policy.maxTotalMs;
          held = await this.pace.acquire(
            deadline,
            retry ? 'retry' : options.continues ? 'continues' : 'new',
            options.token,
          );
        } finally {
          waited?.();
        }
        // A token due for renewal after a long turn gives the turn back and takes another, first, after the
        // renewal's own: sent right behind the renewal, at one request a second the target refused one of the two.
        // Once: a token that lives shorter than a turn would otherwise never let the request go.
        const due = options.auth?.kind === 'bearer' && options.auth.tokens.due();
        if (held === false || !due || turnsGivenBack > 0) break;
        this.pace.finished();
        retry = true;
      }
      if (held === false) {
        const waitMs = this.pace.pausedUntilMs() - this.clock.now();
        const deadline = `the request's ${this.policy.maxTotalMs} ms deadline`;
        const reason = `not sent: the target asked this client to wait ${seconds(waitMs)} more, past ${deadline}`;
        throw throttledError(attempt - 1, reason, history.at(-1)?.status ?? undefined);
      }
      // The token read before a long turn may have been replaced in it: the current one, which is not due.
      let headers: Record<string, string>;
      try {
        headers = await this.headersFor(options.auth, contentType);
      } catch (error) {
        this.pace.finished();
        throw error;
      }
      const sentAt = this.clock.now();
      firstSentAt ??= sentAt;
      const exchange: HttpExchange = {
        method,
        url: url.toString(),
        status: null,
        durationMs: 0,
        pacedMs: throttledAt === undefined ? held : sentAt - throttledAt,
        requestHeaders: headers,
        requestBody: options.form ?? options.json ?? options.raw?.text,
        responseHeaders: {},
        attempt: history.length + 1,
        operation: options.operation,
        purpose: options.purpose,
      };
      let result: Attempt | undefined;
      let retryAfterMs: number | undefined;
      let throttled = false;
      try {
        // The test may have ended while the request waited for its turn: its place goes unused.
        this.ensureWorkGoesOn(request);
        result = await this.attempt(exchange, body, route);
        retryAfterMs = parseRetryAfter(result.response?.headers['retry-after'], this.clock.now());
        throttled = isThrottled(result.response?.status, retryAfterMs);
      } finally {
        this.pace.finished(result?.response && { sentAt, throttled, retryAfterMs });
      }
      history.push(result.exchange);
      const decision = retryDecision(this.policy, {
        method,
        attempt,
        status: result.response?.status,
        error: result.failure,
        retryAfterMs,
        elapsedMs: this.clock.now() - firstSentAt,
        random: (this.options.random ?? Math.random)(),
      });
      if (decision.retry) {
        throttledAt = throttled ? this.clock.now() : undefined;
        refusal = throttled ? this.work?.refused() : undefined;
        await this.clock.sleep(decision.delayMs);
      } else if (decision.throttled) {
        throw throttledError(attempt, decision.reason, result.response?.status);
      } else if (result.response) {
        return { ...result.response, exchanges: history };
      } else if (result.failure === 'setup') {
        throw new NetworkSetupError(result.error, url, route, this.options.addressSetting ?? 'the configured address');
      } else {
        const detail = `${request}: ${result.exchange.error}; ${decision.reason}`;
        throw new TargetUnavailableError(host, result.failure, attempt, history, detail);
      }
    }
  }

  private ensureWorkGoesOn(request: string): void {
    const ended = this.work?.ended();
    if (ended !== undefined) throw new NotSentError(request, ended);
  }

  /** Sends the request `exchange` describes; publishes it, redacted, with what came back; counts it for its work. */
  private async attempt(exchange: HttpExchange, sent: string | undefined, route: Route): Promise<Attempt> {
    const started = this.clock.now();
    let result: Attempt;
    // undici's own timers have about 1 s resolution; the signal is precise and also covers reading the body.
    const timeout = timeoutOn(this.clock, this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    try {
      const answer = await undiciRequest(exchange.url, {
        dispatcher: this.options.dispatcher ?? dispatcherFor(route),
        method: exchange.method as 'GET',
        headers: exchange.requestHeaders,
        body: sent,
        signal: timeout.signal,
      });
      const text = await answer.body.text();
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(answer.headers)) {
        if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const { statusCode: status } = answer;
      const body = parseBody(text);
      Object.assign(exchange, { status, responseHeaders: headers, responseBody: body });
      const response = { status, ok: status >= 200 && status < 300, headers, body, text, url: exchange.url };
      result = { exchange, response: { ...response, exchanges: [], receivedAt: this.clock.now(), sentAt: started } };
    } catch (error) {
      const failure = classifyFailure(error);
      exchange.error = `${failure}: ${messageOf(error)}${viaProxy(route)}`;
      result = { exchange, failure, error };
    } finally {
      timeout.clear();
    }
    exchange.durationMs = this.clock.now() - started;
    result.exchange = redact(exchange);
    publishExchange(result.exchange);
    this.work?.sent(result.exchange);
    return result;
  }

  private async headersFor(auth: Auth | undefined, contentType: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': contentType };
    if (auth?.kind === 'bearer') headers.authorization = `Bearer ${await auth.tokens.accessToken()}`;
    if (auth?.kind === 'raw') headers.authorization = auth.authorization;
    return headers;
  }
}

// The documentation: every operation but the token's sends Content-Type: application/json, bodyless GETs too.
function payload({ raw, form, json }: RequestOptions): { contentType: string; body?: string } {
  if (raw !== undefined) return { contentType: raw.contentType, body: raw.text };
  const body = form === undefined ? undefined : new URLSearchParams(form).toString();
  if (body !== undefined) return { contentType: 'application/x-www-form-urlencoded', body };
  return { contentType: 'application/json', body: json === undefined ? undefined : JSON.stringify(json) };
}

// Parsed whenever it parses: the documentation shows no content types, and mislabelled JSON stays inspectable.
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
