// Owns waiting: the only polling helper. The documentation promises effects "eventually" without a
// delay, so every wait is bounded by the configured deadline.
import type { ApiResponse } from '../transport/http.js';
import { systemClock, type Clock } from '../transport/clock.js';
import { parseRetryAfter } from '../transport/retry.js';
import { redact, redactText } from '../transport/redact.js';
import { attachText, step } from '../evidence/report.js';
import type { Reading } from './facts.js';

// The schedule: a wait for a write's effect reads first after 1.5 s, any other wait at once, then every half of
// the time it has waited, 100 ms to 2 s apart, or later on Retry-After. A watch reads once, at its window's end.
export const POLLING = {
  firstLookMs: 1_500,
  shareOfElapsed: 1 / 2,
  minIntervalMs: 100,
  maxIntervalMs: 2_000,
  /** Answers that no amount of waiting changes: fail at once instead of at the deadline. */
  failFastStatuses: [400, 401, 403] as readonly number[],
  excerptChars: 500,
};

/** The documented transitions whose time to consistency the run measures (reports/observed/timings.json). */
export type Transition =
  | 'create'
  | 'update'
  | 'merge'
  | 'remove'
  | 'delete'
  | 'relationship-death'
  | 'relationship-deregistration'
  | 'identification'
  | 'subscription'
  | 'subscription-update';

/** Delay before the next read, `waitedMs` into a wait that has read at least once. */
export function nextReadIn(waitedMs: number): number {
  return Math.min(
    POLLING.maxIntervalMs,
    Math.max(POLLING.minIntervalMs, Math.round(waitedMs * POLLING.shareOfElapsed)),
  );
}

export interface WaitOptions {
  timeoutMs: number;
  clock?: Clock;
  /** The write's effect waited for: the first read comes after `POLLING.firstLookMs`. */
  transition?: Transition;
  /** The test that waits, for the bench's wait log. */
  test?: string;
}

export interface Consistent<T> {
  value: T;
  response: ApiResponse;
  attempts: number;
  elapsedMs: number;
}

/** One finished wait, for the observed timings and the bench; times count from the wait's start. */
export interface WaitAttempts {
  what: string;
  /** `quiet`: a watch whose window passed without the state it watched for. */
  outcome: 'consistent' | 'timeout' | 'rejected' | 'quiet';
  attempts: number;
  elapsedMs: number;
  transition?: Transition;
  test?: string;
  /** The read that first saw the effect; `notYetAfterMs` the last that did not, `notYetStatuses` all that did not. */
  consistentAfterMs?: number;
  notYetAfterMs?: number;
  notYetStatuses: number[];
}

const waitListeners = new Set<(wait: WaitAttempts) => void>();

export function onWait(listener: (wait: WaitAttempts) => void): () => void {
  waitListeners.add(listener);
  return () => waitListeners.delete(listener);
}

const inSeconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** The deadline passed: the message says what the last answer showed of the awaited value, then its body. */
export class NotConsistentError extends Error {
  override readonly name = 'NotConsistentError';
  constructor(
    readonly what: string,
    readonly deadlineMs: number,
    readonly elapsedMs: number,
    readonly attempts: number,
    readonly lastResponse: ApiResponse, // redacted: errors are printed with their properties
    readonly seen?: Pick<Reading, 'found' | 'looked'>,
  ) {
    const reads = `${attempts} read(s) over ${inSeconds(elapsedMs)}`;
    super(
      `Not shown within ${inSeconds(deadlineMs)}: ${what}; ` +
        `${seen ? `${seen.found} (${reads}; looked at ${seen.looked})` : reads}; ` +
        `last answer ${describe(lastResponse)}`,
    );
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

type Read = () => Promise<ApiResponse>;
/** The awaited state an answer shows: not yet if nullish, false or a Reading that does not hold (timeouts name it). */
type Until<T> = (response: ApiResponse) => T | Reading | undefined | null | false;

/**
 * Reads until `until` holds, and returns what it returned (the reading: the verdict the caller passed) with the
 * response that produced it, as `expect.poll` does; the report shows the evidence of a reading that held, once.
 */
export function eventually<T>(what: string, read: Read, until: Until<T>, options: WaitOptions): Promise<Consistent<T>> {
  return poll(what, read, until, options, 'timeout') as Promise<Consistent<T>>;
}

/** Reads once, at the end of `options.timeoutMs`, for a state that should not come (once shown, it stays). */
export function watch<T>(
  what: string,
  read: Read,
  shows: Until<T>,
  options: WaitOptions,
): Promise<Consistent<T> | undefined> {
  return poll(what, read, shows, options, 'quiet');
}

async function poll<T>(
  what: string,
  read: Read,
  until: Until<T>,
  { clock = systemClock, timeoutMs, test, ...options }: WaitOptions,
  atDeadline: 'timeout' | 'quiet',
): Promise<Consistent<T> | undefined> {
  const quiet = atDeadline === 'quiet';
  const transition = quiet ? undefined : options.transition;
  const started = clock.now();
  const waited = () => clock.now() - started;
  const notYetStatuses: number[] = [];
  let notYetAfterMs: number | undefined;
  const finish = (outcome: WaitAttempts['outcome'], attempts: number, consistentAfterMs?: number): number => {
    const elapsedMs = waited();
    const wait = {
      what,
      outcome,
      attempts,
      elapsedMs,
      transition,
      test,
      consistentAfterMs,
      notYetAfterMs,
      notYetStatuses,
    };
    for (const listener of waitListeners) listener(wait);
    return elapsedMs;
  };
  return step(quiet ? `Watch ${timeoutMs} ms for ${what}` : `Wait until ${what}`, async () => {
    let delay = quiet ? timeoutMs : transition ? POLLING.firstLookMs : 0;
    for (let attempts = 1; ; attempts++) {
      // The last attempt lands on the deadline rather than past it. Only a read asked at the deadline decides:
      // one asked before it and answered after it (a busy machine, a long list)
      // shows the effect had not come when it was asked, not that it missed the deadline.
      const untilDeadline = timeoutMs - waited();
      const last = delay >= untilDeadline;
      const sleep = Math.min(delay, untilDeadline);
      if (sleep > 0) await clock.sleep(sleep);
      const asked = waited();
      const stepTitle = `attempt ${attempts} after ${asked} ms`;
      const { response, value } = await step(stepTitle, async (handle) => {
        const answer = await read();
        const seen = until(answer);
        await handle.rename(`${stepTitle}: ${answer.status} (${holds(seen) ? 'holds' : 'not yet'})`);
        return { response: answer, value: seen };
      });
      if (holds(value)) {
        const elapsedMs = finish('consistent', attempts, asked);
        if (isReading(value)) await attachText(`Evidence that ended the wait until ${what}`, value.evidence.join('\n'));
        return { value, response, attempts, elapsedMs };
      }
      notYetStatuses.push(response.status);
      notYetAfterMs = asked;
      if (POLLING.failFastStatuses.includes(response.status)) {
        finish('rejected', attempts);
        throw new WaitRejectedError(what, attempts, redact(response));
      }
      if (last) {
        const elapsedMs = finish(atDeadline, attempts);
        if (quiet) return undefined;
        const seen = unmet(value) ? { found: redactText(value.found), looked: redactText(value.looked) } : undefined;
        throw new NotConsistentError(what, timeoutMs, elapsedMs, attempts, redact(response), seen);
      }
      const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? 0;
      delay = Math.max(retryAfter, nextReadIn(waited()));
    }
  });
}

const isReading = (seen: unknown): seen is Reading => typeof seen === 'object' && seen !== null && 'holds' in seen;

const unmet = (seen: unknown): seen is Reading => isReading(seen) && !seen.holds;

export function holds<T>(seen: T | Reading | undefined | null | false): seen is T {
  return seen !== undefined && seen !== null && seen !== false && !unmet(seen);
}

function describe(response: ApiResponse): string {
  const body = JSON.stringify(redact(response.body)) ?? '(no body)';
  const excerpt = body.length > POLLING.excerptChars ? `${body.slice(0, POLLING.excerptChars)}…` : body;
  return `${response.status} ${excerpt}`;
}
