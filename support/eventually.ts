// The only polling helper. The documentation promises effects "eventually" without a delay, so
// every wait is bounded by the configured deadline and every attempt is visible in the report.
import { parseRetryAfter, systemClock, type ApiResponse, type Clock } from './http.js';
import { redact } from './redact.js';
import { step } from './report.js';

export type { Clock } from './http.js';

// The interval grows with the time already waited, so the lag between the effect and its
// notice stays a small share of the wait while fast effects are still seen within ~50 ms.
export const POLLING = {
  shareOfElapsed: 0.3,
  minIntervalMs: 50,
  maxIntervalMs: 2_000,
  jitter: 0.2,
  /** Answers that no amount of waiting changes: fail at once instead of at the deadline. */
  failFastStatuses: [400, 401, 403] as readonly number[],
  excerptChars: 500,
};

export interface WaitOptions {
  timeoutMs: number;
  clock?: Clock;
  random?: () => number;
}

export interface Consistent<T> {
  value: T;
  response: ApiResponse;
  attempts: number;
  elapsedMs: number;
}

/** One finished wait, for the benchmark's attempts-per-wait statistic. */
export interface WaitAttempts {
  what: string;
  outcome: 'consistent' | 'timeout' | 'rejected';
  attempts: number;
  elapsedMs: number;
}

const waitListeners = new Set<(wait: WaitAttempts) => void>();

/** Calls `listener` when a wait ends; returns the unsubscribe function. */
export function onWait(listener: (wait: WaitAttempts) => void): () => void {
  waitListeners.add(listener);
  return () => waitListeners.delete(listener);
}

/** The deadline passed before the awaited state was seen. */
export class NotConsistentError extends Error {
  override readonly name = 'NotConsistentError';
  constructor(
    readonly what: string,
    readonly elapsedMs: number,
    readonly attempts: number,
    /** Redacted: errors are printed with their properties. */
    readonly lastResponse: ApiResponse,
  ) {
    super(`Not consistent within ${elapsedMs} ms: waited for ${what}; ${attempts} attempt(s); last answer ${describe(lastResponse)}`);
  }
}

/** The target answered with a status that waiting cannot change (400, 401, 403). */
export class WaitRejectedError extends Error {
  override readonly name = 'WaitRejectedError';
  constructor(
    readonly what: string,
    readonly attempts: number,
    readonly response: ApiResponse,
  ) {
    super(`Gave up waiting for ${what}: attempt ${attempts} was answered ${describe(response)}`);
  }
}

/**
 * Repeats `read` until `until(response)` returns something other than undefined, null or false,
 * and returns that value with the response that produced it.
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<ApiResponse>,
  until: (response: ApiResponse) => T | undefined | null | false,
  options: WaitOptions,
): Promise<Consistent<T>> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const started = clock.now();
  const finish = (outcome: WaitAttempts['outcome'], attempts: number): number => {
    const elapsedMs = clock.now() - started;
    for (const listener of waitListeners) listener({ what, outcome, attempts, elapsedMs });
    return elapsedMs;
  };
  return step(`Wait until ${what}`, async () => {
    for (let attempts = 1; ; attempts++) {
      const at = clock.now() - started;
      const { response, value } = await step(`attempt ${attempts} after ${at} ms`, async (handle) => {
        const answer = await read();
        const seen = until(answer);
        const verdict = seen === undefined || seen === null || seen === false ? 'not yet' : 'holds';
        await handle.rename(`attempt ${attempts} after ${at} ms: ${answer.status} (${verdict})`);
        return { response: answer, value: seen };
      });
      if (value !== undefined && value !== null && value !== false) {
        return { value, response, attempts, elapsedMs: finish('consistent', attempts) };
      }
      if (POLLING.failFastStatuses.includes(response.status)) {
        finish('rejected', attempts);
        throw new WaitRejectedError(what, attempts, redact(response));
      }
      const elapsed = clock.now() - started;
      const remaining = options.timeoutMs - elapsed;
      if (remaining <= 0) {
        throw new NotConsistentError(what, finish('timeout', attempts), attempts, redact(response));
      }
      const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? 0;
      // The last attempt lands on the deadline rather than past it.
      await clock.sleep(Math.min(remaining, Math.max(retryAfter, pollInterval(elapsed, random()))));
    }
  });
}

/** Delay before the next attempt after `elapsedMs` of waiting; `random` in [0, 1). */
export function pollInterval(elapsedMs: number, random: number): number {
  const jittered = elapsedMs * POLLING.shareOfElapsed * (1 + POLLING.jitter * (2 * random - 1));
  return Math.round(Math.min(POLLING.maxIntervalMs, Math.max(POLLING.minIntervalMs, jittered)));
}

function describe(response: ApiResponse): string {
  const body = JSON.stringify(redact(response.body)) ?? '(no body)';
  const excerpt = body.length > POLLING.excerptChars ? `${body.slice(0, POLLING.excerptChars)}…` : body;
  return `${response.status} ${excerpt}`;
}
