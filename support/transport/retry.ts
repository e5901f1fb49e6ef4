// The retry policy as data and its decision as a pure function; the HTTP client only schedules what they decide.
import { codeOf, setupReason, tunnelStatus } from './network-failures.js';

const policy = {
  /** Attempts at most for an answer that does not throttle: a throttled request is retried until its deadline. */
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  /** Every request's own deadline: no retry starts that would pass it. */
  maxTotalMs: 30_000,
  /** Share of the delay added or removed at random, so parallel workers do not retry in lockstep. */
  jitter: 0.2,
  /** "Try again later"; every other answer (400, 401, 403, 404, 409, 422, ...) is final. */
  retryStatuses: [429, 502, 503, 504],
  /** The server says it did not process the request, so even a POST may be repeated. */
  unprocessedStatuses: [429, 503],
  idempotentMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'],
};
export type RetryPolicy = Readonly<typeof policy>;
export const RETRY_POLICY: RetryPolicy = policy;

// What time may cure, by the codes that show it. After `refused` and `unresolved` nothing left this process; after
// the others the server may have processed the request.
const TRANSIENT_CODES = {
  refused: ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'],
  unresolved: ['ENOTFOUND', 'EAI_AGAIN'],
  timeout: ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'],
  reset: ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'],
};

/** How an attempt failed without an answer; `setup`: a setting stands in the way (network-failures.ts says which). */
export type TransportFailure = keyof typeof TRANSIENT_CODES | 'setup' | 'other';

export interface AttemptOutcome {
  method: string;
  /** 1-based number of the attempt that just ended. */
  attempt: number;
  status?: number;
  error?: TransportFailure;
  retryAfterMs?: number;
  /** Since the first attempt was sent. */
  elapsedMs: number;
  /** A number in [0, 1) for the jitter; 0.5 means none. */
  random?: number;
}

/** The target protects itself (a 429, or a 503 saying when to return): retried to the deadline, whatever the count. */
export function isThrottled(status?: number, retryAfterMs?: number): boolean {
  return status === 429 || (status === 503 && retryAfterMs !== undefined);
}

/** Whether an answer an observer saw (as an exchange records it) was throttled. */
export function throttledAnswer(status: number | null, headers: Record<string, string>, nowMs: number): boolean {
  return isThrottled(status ?? undefined, parseRetryAfter(headers['retry-after'], nowMs));
}

/** `throttled`: the target was still throttling when the decision gave up (its deadline passed). */
type RetryDecision = { retry: false; reason: string; throttled?: true } | { retry: true; delayMs: number };

export function retryDecision(policy: RetryPolicy, outcome: AttemptOutcome): RetryDecision {
  const { status, error, attempt } = outcome;
  const method = outcome.method.toUpperCase();
  const transient =
    status !== undefined
      ? policy.retryStatuses.includes(status)
      : error !== undefined && Object.hasOwn(TRANSIENT_CODES, error);
  const cause = status !== undefined ? `status ${status}` : (error ?? 'no answer');
  if (!transient) return { retry: false, reason: `${cause} is not transient` };

  const unprocessed =
    status !== undefined ? policy.unprocessedStatuses.includes(status) : error === 'refused' || error === 'unresolved';
  if (!policy.idempotentMethods.includes(method) && !unprocessed) {
    return { retry: false, reason: `${method} is not repeated after ${cause}: the server may have processed it` };
  }
  const throttled = isThrottled(status, outcome.retryAfterMs);
  if (!throttled && attempt >= policy.maxAttempts)
    return { retry: false, reason: `${cause} after ${attempt} attempts` };

  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
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
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function classifyFailure(error: unknown): TransportFailure {
  // First: undici reports a proxy's refusal as an AbortError, which is no deadline.
  if (setupReason(error) !== undefined) return 'setup';
  // A proxy that answered CONNECT with a 5xx could not reach the target: nothing was sent to it.
  if (tunnelStatus(error) !== undefined) return 'refused';
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  const code = codeOf(error) ?? '';
  const [failure = 'other'] = Object.entries(TRANSIENT_CODES).find(([, codes]) => codes.includes(code)) ?? [];
  return failure as TransportFailure;
}
