// Owns waiting: the only polling helper, with a deadline, backoff with jitter, Retry-After and visible attempts.
// The only polling helper. The documentation promises effects "eventually" without a delay, so
// every wait is bounded by the configured deadline and every attempt is visible in the report.
import { BroadcastChannel } from 'node:worker_threads';
import { systemClock, type ApiResponse, type Clock } from '../transport/http.js';
import { parseRetryAfter } from '../transport/retry.js';
import { redact } from '../transport/redact.js';
import { step } from '../evidence/report.js';

export type { Clock } from '../transport/http.js';

// Polling trades requests (a shared sandbox rewards few) against notice lag (from the moment an
// effect is visible to the read that sees it; lags add up along a spec's chain of dependent waits).
// Knowing nothing about the target, the schedule must be scale-free: the interval grows with the
// time already waited, so the lag stays a share of the wait while fast effects are still seen
// within ~50 ms, at the price of ~15 attempts for a 2 s effect. But one target's effects take
// similar times, so once earlier waits of this process have shown the typical time to consistency,
// a wait not satisfied at once re-reads first at half of it (effects seldom come much sooner) and
// then every quarter of it: a handful of attempts, each lag a small share of the delay.
export const POLLING = {
  /** Without history: the interval is this share of the time already waited. */
  shareOfElapsed: 0.3,
  /** With history: the first re-read comes at this share of the typical time to consistency... */
  firstLookShare: 0.5,
  /** ...and later ones every this share of it, or of the time waited once that is longer. */
  shareOfTypical: 0.25,
  /** The typical time is the median of this many recent waits, so one slow effect does not shift it. */
  historySize: 16,
  minIntervalMs: 50,
  /** Caps the growing interval; the first look is bounded by the history instead. */
  maxIntervalMs: 2_000,
  jitter: 0.2,
  /** Answers that no amount of waiting changes: fail at once instead of at the deadline. */
  failFastStatuses: [400, 401, 403] as readonly number[],
  excerptChars: 500,
};

/**
 * When earlier waits first saw the state they waited for. Only waits that had to re-read count: one
 * satisfied by its first read says only that the effect came before the wait began.
 */
export class ConsistencyHistory {
  private readonly samples: number[] = [];
  private channel?: BroadcastChannel;

  /**
   * A history that every other history joined to `channel` in this process learns from too. The
   * contract workers are threads of one process, and a run's first waits start together: sharing
   * lets those still on the uninformed schedule switch as soon as any one of them has finished.
   */
  static shared(channel: string): ConsistencyHistory {
    const history = new ConsistencyHistory();
    history.channel = new BroadcastChannel(channel);
    // A listening channel must not keep a finished worker alive (`unref` is missing from @types/node 20).
    (history.channel as unknown as { unref(): void }).unref();
    history.channel.onmessage = (event) => history.keep(Number(event.data));
    return history;
  }

  record(consistentAfterMs: number): void {
    this.keep(consistentAfterMs);
    this.channel?.postMessage(consistentAfterMs);
  }

  /** The median of the recent samples; undefined before the first one. */
  typicalMs(): number | undefined {
    if (this.samples.length === 0) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
  }

  private keep(sample: number): void {
    this.samples.push(sample);
    if (this.samples.length > POLLING.historySize) this.samples.shift();
  }
}

// The default for every wait. With the contract project's `isolate: false` a worker also keeps it
// across spec files, so later files start with what earlier ones learned.
const runHistory = ConsistencyHistory.shared('contract-suite:consistency');

/** The documented transitions whose time to consistency the run measures (reports/observed/timings.json). */
export type Transition = 'create' | 'update' | 'merge' | 'remove' | 'delete' | 'relationship-death' | 'relationship-deregistration' | 'identification' | 'subscription';

/** A wait for the effect of a write: which transition, and when the write was acknowledged. */
export interface AwaitedTransition {
  name: Transition;
  /** Epoch ms of the write's answer: time to consistency is measured from it. */
  since: number;
}

export interface WaitOptions {
  timeoutMs: number;
  clock?: Clock;
  random?: () => number;
  /** Defaults to the history shared by the waits of this run's workers. */
  history?: ConsistencyHistory;
  transition?: AwaitedTransition;
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
  /** `quiet`: a watch whose window passed without the state it watched for (support/verbs/persons.ts watchFor). */
  outcome: 'consistent' | 'timeout' | 'rejected' | 'quiet';
  attempts: number;
  elapsedMs: number;
  transition?: Transition;
  /** From the acknowledged write to the read that first saw the effect (consistent waits of a transition). */
  consistentAfterMs?: number;
  /** From the acknowledged write to the last read that did not yet see the effect: with `consistentAfterMs`, the interval the effect came in. */
  notYetAfterMs?: number;
  /** The status of every read that did not (yet) see the awaited state, in order: the early reads. */
  notYetStatuses: number[];
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
export function eventually<T>(
  what: string,
  read: () => Promise<ApiResponse>,
  until: (response: ApiResponse) => T | undefined | null | false,
  options: WaitOptions,
): Promise<Consistent<T>> {
  return poll(`Wait until ${what}`, what, read, until, options, {
    outcome: 'timeout',
    passed: (error) => {
      throw error;
    },
  });
}

/**
 * Reads like `eventually` for a state that should not come, for `options.timeoutMs`: the first
 * answer that shows it, or undefined when the window passed without it. A quiet window is the
 * expected outcome, so the report shows the watch as passed, not as a failed wait.
 */
export function watch<T>(
  what: string,
  read: () => Promise<ApiResponse>,
  shows: (response: ApiResponse) => T | undefined | null | false,
  options: WaitOptions,
): Promise<Consistent<T> | undefined> {
  return poll(`Watch ${options.timeoutMs} ms for ${what}`, what, read, shows, options, { outcome: 'quiet', passed: () => undefined });
}

/** What a poll does when its deadline passes: `eventually` fails, `watch` reports a quiet window. */
interface AtDeadline<D> {
  outcome: WaitAttempts['outcome'];
  passed: (error: NotConsistentError) => D;
}

async function poll<T, D>(
  title: string,
  what: string,
  read: () => Promise<ApiResponse>,
  until: (response: ApiResponse) => T | undefined | null | false,
  options: WaitOptions,
  atDeadline: AtDeadline<D>,
): Promise<Consistent<T> | D> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const history = options.history ?? runHistory;
  const started = clock.now();
  const notYetStatuses: number[] = [];
  let notYetAt: number | undefined;
  const finish = (outcome: WaitAttempts['outcome'], attempts: number, sawItAt?: number): number => {
    const elapsedMs = clock.now() - started;
    const transition = options.transition;
    const sinceWrite = (at: number | undefined) => (transition && at !== undefined ? Math.max(0, started + at - transition.since) : undefined);
    const [consistentAfterMs, notYetAfterMs] = [sinceWrite(sawItAt), sinceWrite(notYetAt)];
    for (const listener of waitListeners) listener({ what, outcome, attempts, elapsedMs, transition: transition?.name, consistentAfterMs, notYetAfterMs, notYetStatuses });
    return elapsedMs;
  };
  return step(title, async () => {
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
        // The read that saw it was sent at `at`; its own duration is not part of the delay.
        if (attempts > 1) history.record(at);
        return { value, response, attempts, elapsedMs: finish('consistent', attempts, at) };
      }
      notYetStatuses.push(response.status);
      notYetAt = at;
      if (POLLING.failFastStatuses.includes(response.status)) {
        finish('rejected', attempts);
        throw new WaitRejectedError(what, attempts, redact(response));
      }
      const elapsed = clock.now() - started;
      const remaining = options.timeoutMs - elapsed;
      if (remaining <= 0) {
        return atDeadline.passed(new NotConsistentError(what, finish(atDeadline.outcome, attempts), attempts, redact(response)));
      }
      const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? 0;
      // The last attempt lands on the deadline rather than past it.
      await clock.sleep(Math.min(remaining, Math.max(retryAfter, pollInterval(elapsed, random(), history.typicalMs()))));
    }
  });
}

/**
 * Delay before the next attempt after `elapsedMs` of waiting; `random` in [0, 1); `typicalMs` is
 * what earlier waits took to see consistency, if any did.
 */
export function pollInterval(elapsedMs: number, random: number, typicalMs?: number): number {
  const jitter = 1 + POLLING.jitter * (2 * random - 1);
  const clamp = (ms: number, max: number) => Math.round(Math.min(max, Math.max(POLLING.minIntervalMs, ms * jitter)));
  if (typicalMs === undefined) return clamp(elapsedMs * POLLING.shareOfElapsed, POLLING.maxIntervalMs);
  const firstLook = typicalMs * POLLING.firstLookShare;
  if (elapsedMs < firstLook) return clamp(firstLook - elapsedMs, Infinity);
  return clamp(Math.max(typicalMs, elapsedMs) * POLLING.shareOfTypical, POLLING.maxIntervalMs);
}

function describe(response: ApiResponse): string {
  const body = JSON.stringify(redact(response.body)) ?? '(no body)';
  const excerpt = body.length > POLLING.excerptChars ? `${body.slice(0, POLLING.excerptChars)}…` : body;
  return `${response.status} ${excerpt}`;
}
