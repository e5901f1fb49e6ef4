// Owns the retry policy: which answers and failures are transient, how long to wait, when to stop.
// Policy is data and the decision a pure function, so both are tested without a server; the HTTP
// client (support/transport/http.ts) only schedules what they decide.
import { setupReason, tunnelStatus } from './network-errors.js';

export interface RetryPolicy {
  /**
   * Attempts at most for an answer that is not throttling: a throttled request is retried until its deadline instead.
   */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** No retry is started once attempts and waits together would pass this: every request's own deadline. */
  readonly maxTotalMs: number;
  /** Share of the delay added or removed at random, so parallel workers do not retry in lockstep. */
  readonly jitter: number;
  /** Answers that mean "try again later". Everything else (400, 401, 403, 404, 409, 422, ...) is final. */
  readonly retryStatuses: readonly number[];
  /** Answers by which the server says it did not process the request, so even a POST may be repeated. */
  readonly unprocessedStatuses: readonly number[];
  /**
   * Answers by which the target protects itself (`Retry-After`): 429 always, 503 when it says when
   * to come back. They are retried until the deadline, whatever the attempt count, and one still
   * throttled then is the target's rate, not a broken promise.
   */
  readonly throttleStatuses: readonly number[];
  readonly idempotentMethods: readonly string[];
}

export const RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxTotalMs: 30_000,
  jitter: 0.2,
  retryStatuses: [429, 502, 503, 504],
  unprocessedStatuses: [429, 503],
  throttleStatuses: [429],
  idempotentMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'],
};

/**
 * How an attempt failed without an answer. `refused` and `unresolved` mean the request never
 * left this process; after `timeout` and `reset` the server may or may not have processed it.
 * `setup`: the host or a proxy answered, but a setting stands in the way (TLS trust, host name,
 * TLS version, proxy credentials; support/transport/network-errors.ts names which).
 */
export type TransportFailure = 'refused' | 'unresolved' | 'timeout' | 'reset' | 'setup' | 'other';

/** Failures that time may cure; `setup` and `other` never are. */
const TRANSIENT_FAILURES: readonly TransportFailure[] = ['refused', 'unresolved', 'timeout', 'reset'];

export interface AttemptOutcome {
  method: string;
  /** 1-based number of the attempt that just ended. */
  attempt: number;
  status?: number;
  error?: TransportFailure;
  /** The server's Retry-After, already converted to milliseconds. */
  retryAfterMs?: number;
  /** Time since the first attempt started, including this one. */
  elapsedMs: number;
  /** A number in [0, 1) for the jitter; 0.5 means none. */
  random?: number;
}

/** `throttled`: the target was still throttling when the decision gave up (its deadline passed). */
export type RetryDecision = { retry: false; reason: string; throttled?: true } | { retry: true; delayMs: number };

/** The target asked to be called less often: a 429, or a 503 that says when to come back. */
export function isThrottled(
  policy: RetryPolicy,
  status: number | undefined,
  retryAfterMs: number | undefined,
): boolean {
  return (
    status !== undefined && (policy.throttleStatuses.includes(status) || (status === 503 && retryAfterMs !== undefined))
  );
}

/**
 * Whether an answer an observer saw (status and headers, as an exchange records them) was throttled under the default
 * policy.
 */
export function throttledAnswer(status: number | null, headers: Record<string, string>, nowMs: number): boolean {
  return isThrottled(RETRY_POLICY, status ?? undefined, parseRetryAfter(headers['retry-after'], nowMs));
}

export function retryDecision(policy: RetryPolicy, outcome: AttemptOutcome): RetryDecision {
  const method = outcome.method.toUpperCase();
  const transient =
    outcome.status !== undefined
      ? policy.retryStatuses.includes(outcome.status)
      : outcome.error !== undefined && TRANSIENT_FAILURES.includes(outcome.error);
  const cause = outcome.status !== undefined ? `status ${outcome.status}` : (outcome.error ?? 'no answer');
  if (!transient) return { retry: false, reason: `${cause} is not transient` };

  const unprocessed =
    outcome.status !== undefined
      ? policy.unprocessedStatuses.includes(outcome.status)
      : outcome.error === 'refused' || outcome.error === 'unresolved';
  if (!policy.idempotentMethods.includes(method) && !unprocessed) {
    return { retry: false, reason: `${method} is not repeated after ${cause}: the server may have processed it` };
  }
  const throttled = isThrottled(policy, outcome.status, outcome.retryAfterMs);
  if (!throttled && outcome.attempt >= policy.maxAttempts) {
    return { retry: false, reason: `${cause} after ${outcome.attempt} attempts` };
  }

  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (outcome.attempt - 1));
  const jittered = backoff * (1 + policy.jitter * (2 * (outcome.random ?? 0.5) - 1));
  const delayMs = Math.round(outcome.retryAfterMs ?? jittered);
  if (outcome.elapsedMs + delayMs > policy.maxTotalMs) {
    const reason = `${cause}; waiting ${delayMs} ms more would pass the ${policy.maxTotalMs} ms deadline`;
    return throttled ? { retry: false, reason, throttled } : { retry: false, reason };
  }
  return { retry: true, delayMs };
}

/** Retry-After as milliseconds from `nowMs`: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function classifyFailure(error: unknown): TransportFailure {
  const name = (error as { name?: unknown } | null)?.name;
  const code =
    (error as { code?: unknown } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  // First: undici reports a proxy's refusal as an AbortError, which is no deadline.
  if (setupReason(error) !== undefined) return 'setup';
  // A proxy that answered CONNECT with a 5xx could not reach the target: nothing was sent to it.
  if (tunnelStatus(error) !== undefined) return 'refused';
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  switch (code) {
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unresolved';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timeout';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'reset';
    default:
      return 'other';
  }
}
