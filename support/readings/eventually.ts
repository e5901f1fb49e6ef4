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
// A wait for a write's effect counts its time from the write, and one target's effects take similar
// times, so the run learns them: once earlier waits have seen consistency, a wait's first read
// comes when a good share of those effects had come (the 40th percentile of their times), not at
// once, where it would only be wasted, and later reads follow at a share of the time since the
// write, so they grow with the time already waited. Knowing nothing, the run's first waits, which
// all start together, do not each poll on a guess: one of them scouts, reading at intervals that
// grow with the time waited (scale-free: a fast effect is seen within ~50 ms), while the others
// wait without reading until it, or any wait of the run, has seen an effect, and then join the
// learned schedule. A wait that is not for a write's effect (a lookup of something already shown,
// a watch) reads at once and then on the scale-free schedule.
export const POLLING = {
  /** A wait that is not for a write's effect: the interval is this share of the time since its start. */
  shareOfElapsed: 0.3,
  /** Nothing learned yet: this many waits scout for all, reading this share of the time since their write apart... */
  scouts: 1,
  scoutShare: 0.3,
  /** With history: the first read comes at this quantile of the times to consistency seen... */
  firstLookQuantile: 0.4,
  /** ...and every later one after this share of the time since the write... */
  shareAfterFirstLook: 0.3,
  /**
   * ...or this larger share while fewer than `learnedFrom` effects were seen: those few are the
   * earliest of the run's first waits, so reads set by them come early, and a wider step makes
   * up for it at the price of some notice lag.
   */
  shareWhileLearning: 0.45,
  learnedFrom: 5,
  /**
   * A wait satisfied by its first read knows only that the effect came before it: counted at this
   * share of the first look it read at (of the read's time, when it came earlier), so first reads
   * that keep seeing the effect move the first look earlier and first reads that miss move it later...
   */
  firstReadShare: 0.8,
  /** ...and at this share of the read's time when nothing was learned yet (it may have waited for the client's pace). */
  firstReadShareUnlearned: 0.5,
  /** The times are those of this many recent waits per transition, so the schedule follows the target. */
  historySize: 32,
  /** A transition's own times count once there are this many; before, every transition's together (a handful says little). */
  ownFrom: 3,
  /** How often a wait that lets the scout read looks whether something was learned. */
  followerCheckMs: 100,
  minIntervalMs: 50,
  /** Caps the growing interval. */
  maxIntervalMs: 2_000,
  jitter: 0.2,
  /** A watch reads at its start and then this share of its window apart: a state, once shown, stays. */
  watchShare: 1,
  /** Answers that no amount of waiting changes: fail at once instead of at the deadline. */
  failFastStatuses: [400, 401, 403] as readonly number[],
  excerptChars: 500,
};

/**
 * What earlier waits of the run learned: per transition, when its effects became visible after
 * their writes, and whether a wait is scouting for the rest while nothing is known.
 */
export class ConsistencyHistory {
  private readonly samples = new Map<string, number[]>();
  private scouts = 0;
  private channel?: BroadcastChannel;

  /**
   * A history that every other history joined to `channel` in this process learns from too. The
   * contract workers are threads of one process, and a run's first waits start together: sharing
   * lets those still waiting for the scout switch as soon as any one of them has seen its effect.
   */
  static shared(channel: string): ConsistencyHistory {
    const history = new ConsistencyHistory();
    history.channel = new BroadcastChannel(channel);
    // A listening channel must not keep a finished worker alive (`unref` is missing from @types/node 20).
    (history.channel as unknown as { unref(): void }).unref();
    history.channel.onmessage = (event) => {
      const { transition, ms } = event.data as { transition: string; ms: number };
      history.keep(transition, ms);
    };
    return history;
  }

  /** An effect of `transition` became visible `consistentAfterMs` after its write. */
  record(transition: string, consistentAfterMs: number): void {
    this.keep(transition, consistentAfterMs);
    this.channel?.postMessage({ transition, ms: consistentAfterMs });
  }

  /**
   * When a wait for `transition` reads first, in ms after the write: the first-look quantile of its
   * own times, or of every transition's while it has fewer than `ownFrom`; undefined before any wait
   * saw an effect.
   */
  firstLookMs(transition: string): number | undefined {
    const times = this.timesFor(transition);
    if (times.length === 0) return undefined;
    const sorted = [...times].sort((a, b) => a - b);
    const position = POLLING.firstLookQuantile * (sorted.length - 1);
    const below = Math.floor(position);
    return Math.round(sorted[below]! + (sorted[Math.min(below + 1, sorted.length - 1)]! - sorted[below]!) * (position - below));
  }

  /** How many times the first look of `transition` is taken from. */
  learnedFrom(transition: string): number {
    return this.timesFor(transition).length;
  }

  private timesFor(transition: string): number[] {
    const own = this.samples.get(transition) ?? [];
    return own.length >= POLLING.ownFrom ? own : [...this.samples.values()].flat();
  }

  /** Becomes one of the waits that read while nothing is known, unless enough already do. */
  claimScout(): boolean {
    if (this.scouts >= POLLING.scouts) return false;
    this.scouts += 1;
    return true;
  }

  releaseScout(): void {
    this.scouts -= 1;
  }

  private keep(transition: string, sample: number): void {
    const times = this.samples.get(transition) ?? [];
    times.push(sample);
    if (times.length > POLLING.historySize) times.shift();
    this.samples.set(transition, times);
  }
}

// The default for every wait. With the contract project's `isolate: false` a worker also keeps it
// across spec files, so later files start with what earlier ones learned.
const runHistory = ConsistencyHistory.shared('contract-suite:consistency');

/** The documented transitions whose time to consistency the run measures (reports/observed/timings.json). */
export type Transition = 'create' | 'update' | 'merge' | 'remove' | 'delete' | 'relationship-death' | 'relationship-deregistration' | 'identification' | 'subscription' | 'subscription-update';

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
  /** `quiet`: a watch whose window passed without the state it watched for (`watch`). */
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
  return poll(`Watch ${options.timeoutMs} ms for ${what}`, what, read, shows, options, { outcome: 'quiet', passed: () => undefined, minIntervalMs: options.timeoutMs * POLLING.watchShare });
}

/** What a poll does when its deadline passes: `eventually` fails, `watch` reports a quiet window. */
interface AtDeadline<D> {
  outcome: WaitAttempts['outcome'];
  passed: (error: NotConsistentError) => D;
  /** At least this long between reads (a watch's window share). */
  minIntervalMs?: number;
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
  const transition = options.transition;
  // A wait for a write's effect times its reads from the write; any other from its own start.
  const since = transition?.since ?? started;
  const notYetStatuses: number[] = [];
  let notYetAt: number | undefined;
  let scouting = false;
  const remaining = () => options.timeoutMs - (clock.now() - started);
  const finish = (outcome: WaitAttempts['outcome'], attempts: number, sawItAt?: number): number => {
    const elapsedMs = clock.now() - started;
    const sinceWrite = (at: number | undefined) => (transition && at !== undefined ? Math.max(0, started + at - transition.since) : undefined);
    const [consistentAfterMs, notYetAfterMs] = [sinceWrite(sawItAt), sinceWrite(notYetAt)];
    for (const listener of waitListeners) listener({ what, outcome, attempts, elapsedMs, transition: transition?.name, consistentAfterMs, notYetAfterMs, notYetStatuses });
    return elapsedMs;
  };
  /** Sleeps until the next read is due; `delayAtLeast` is what the last answer asked for (Retry-After). */
  const untilNextRead = async (firstRead: boolean, delayAtLeast: number): Promise<void> => {
    for (;;) {
      const firstLookMs = transition ? history.firstLookMs(transition.name) : undefined;
      // Nothing learned yet: one wait reads for all of them, the others look again shortly.
      if (transition && firstLookMs === undefined && !scouting && !(scouting = history.claimScout())) {
        if (remaining() <= 0) return;
        await clock.sleep(Math.min(remaining(), POLLING.followerCheckMs));
        continue;
      }
      const learning = transition !== undefined && history.learnedFrom(transition.name) < POLLING.learnedFrom;
      const delay = Math.max(delayAtLeast, pollDelay({ sinceWriteMs: clock.now() - since, firstRead, firstLookMs, random: random(), minIntervalMs: atDeadline.minIntervalMs, scouting, learning }));
      // The last attempt lands on the deadline rather than past it.
      if (delay > 0 && remaining() > 0) await clock.sleep(Math.min(remaining(), delay));
      return;
    }
  };
  return step(title, async () => {
    try {
      let askedToWait = 0;
      for (let attempts = 1; ; attempts++) {
        if (transition || attempts > 1) await untilNextRead(attempts === 1, askedToWait);
        const asked = clock.now() - started;
        const { response, value } = await step(`attempt ${attempts} after ${asked} ms`, async (handle) => {
          const answer = await read();
          const seen = until(answer);
          const verdict = seen === undefined || seen === null || seen === false ? 'not yet' : 'holds';
          await handle.rename(`attempt ${attempts} after ${asked} ms: ${answer.status} (${verdict})`);
          return { response: answer, value: seen };
        });
        const at = sentAtOf(response, started) ?? asked;
        if (value !== undefined && value !== null && value !== false) {
          // The read that saw it was sent at `at`; its own duration is not part of the delay.
          if (transition) history.record(transition.name, consistencySample(started + at - since, notYetAt === undefined ? undefined : started + notYetAt - since, history.firstLookMs(transition.name)));
          return { value, response, attempts, elapsedMs: finish('consistent', attempts, at) };
        }
        notYetStatuses.push(response.status);
        notYetAt = at;
        if (POLLING.failFastStatuses.includes(response.status)) {
          finish('rejected', attempts);
          throw new WaitRejectedError(what, attempts, redact(response));
        }
        if (remaining() <= 0) {
          return atDeadline.passed(new NotConsistentError(what, finish(atDeadline.outcome, attempts), attempts, redact(response)));
        }
        askedToWait = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? 0;
      }
    } finally {
      if (scouting) history.releaseScout();
    }
  });
}

/**
 * When the request that answered was sent, in ms after the wait started, where the answer says: a
 * read may wait for the client's pace before it goes, and only its sending says when the target looked.
 */
function sentAtOf(response: ApiResponse, started: number): number | undefined {
  const last = response.exchanges.at(-1);
  return last === undefined ? undefined : Math.max(0, response.receivedAt - last.durationMs - started);
}

/**
 * What one wait says about the time to consistency after the write: the middle of the interval
 * the effect came in (after the last read that did not see it, by the first that did), or, when
 * the first read already saw it, a share of that read's time (it only came before), and never more
 * than the first look it was read at: a first read that came late (the wait began long after its
 * write, or waited for the client's pace) says nothing about effects being slower.
 */
export function consistencySample(sawItAfterMs: number, notYetAfterMs: number | undefined, firstLookMs = Infinity): number {

  if (notYetAfterMs !== undefined) return Math.round((sawItAfterMs + notYetAfterMs) / 2);
  return Math.round(firstLookMs === Infinity ? sawItAfterMs * POLLING.firstReadShareUnlearned : Math.min(sawItAfterMs, firstLookMs) * POLLING.firstReadShare);
}

/**
 * Delay before the next read: `sinceWriteMs` since the write (or the wait's start), `firstRead`
 * for the wait's first, `firstLookMs` when the run has learned when effects come, `random` in [0, 1).
 */
export function pollDelay(plan: { sinceWriteMs: number; firstRead: boolean; firstLookMs?: number; random: number; minIntervalMs?: number; scouting?: boolean; learning?: boolean }): number {
  const jitter = 1 + POLLING.jitter * (2 * plan.random - 1);
  if (plan.firstLookMs !== undefined && plan.sinceWriteMs < plan.firstLookMs) return Math.round((plan.firstLookMs - plan.sinceWriteMs) * jitter);
  if (plan.firstRead) return 0;
  const share = plan.firstLookMs !== undefined ? (plan.learning ? POLLING.shareWhileLearning : POLLING.shareAfterFirstLook) : plan.scouting ? POLLING.scoutShare : POLLING.shareOfElapsed;
  const interval = Math.min(POLLING.maxIntervalMs, Math.max(POLLING.minIntervalMs, plan.sinceWriteMs * share * jitter));
  return Math.round(Math.max(interval, plan.minIntervalMs ?? 0));
}

function describe(response: ApiResponse): string {
  const body = JSON.stringify(redact(response.body)) ?? '(no body)';
  const excerpt = body.length > POLLING.excerptChars ? `${body.slice(0, POLLING.excerptChars)}…` : body;
  return `${response.status} ${excerpt}`;
}
