// Owns waiting: the only polling helper, with a deadline, backoff with jitter, Retry-After and visible attempts.
// The documentation promises effects "eventually" without a delay, so every wait is bounded by the
// configured deadline.
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
// comes when half of those effects had come (the median of their times, each known as
// the interval between a read that missed it and the one that saw it, waits still under way counted
// as not seen by their last read; earlier while first reads see their effects much more often than
// it plans), not at once, where it would only be wasted, and later reads follow at a share of the
// time since the write, so they grow with the time already waited. A run starts from what the last
// run against the same target learned, when it was kept (learned-times.ts).
// Knowing nothing, the run's first waits, which all start together, do not each poll on a guess:
// one of them scouts, reading at intervals that grow with the time waited (scale-free: a fast
// effect is seen within ~50 ms), joined by another each time the scouting has lasted twice as long
// from 0.8 s on, while the others wait without reading until a scout, or any wait of the run, has
// seen an effect; then they join, their first reads spread from that moment on so that the
// earliest move the first look for the rest. An effect that follows another one the wait saw (a
// subscription after identification) is timed from that sighting; one that follows an effect the
// wait does not await is timed from the write, its first look that effect's and then its own after
// it, until the run has times of its own for it. A wait that is not for a write's
// effect (a lookup of something already shown) reads at once and then on the scale-free schedule;
// a watch reads once, at the end of its window. Where one answer shows many waits' states (a list),
// a wait hears the answers read for the others, and one that shows its state is its next attempt.
export const POLLING = {
  /** A wait that is not for a write's effect: the interval is this share of the time since its start. */
  shareOfElapsed: 0.3,
  /** Nothing learned yet: this many waits scout for all, reading this share of the time since their write apart... */
  scouts: 1,
  scoutShare: 0.3,
  /**
   * ...and one more joins them each time the scouting has lasted this many times as long as when
   * the last one joined, from `scoutRelayFromMs` on: one effect that comes late must not keep every
   * other wait from reading.
   */
  scoutRelayFactor: 2,
  scoutRelayFromMs: 800,
  /** With history: the first read comes at this quantile of the times to consistency seen... */
  firstLookQuantile: 0.5,
  /**
   * ...brought earlier, down to this share of it, while more of the last `firstReadsKept` first
   * reads aimed at it saw their effect than the quantile plans, by more than `firstReadHitsMargin`
   * (at least `firstReadsFrom` of them): by as much as the excess.
   */
  earliestFirstLookShare: 0.4,
  firstReadHitsMargin: 0.25,
  firstReadsKept: 12,
  firstReadsFrom: 6,
  /** ...and every later one after this share of the time since the write... */
  shareAfterFirstLook: 0.2,
  /**
   * ...or this larger share while fewer than `learnedFrom` effects were seen: those few are the
   * earliest of the run's first waits, so reads set by them come early, and a wider step makes
   * up for it at the price of some notice lag. Counted as the first look's times are (ownOrAll),
   * so never more than `ownFrom`: a transition that has just begun to count its own times would
   * step wide again, though the run's times had set its steps until then.
   */
  shareWhileLearning: 0.45,
  learnedFrom: 3,
  /**
   * ...and the first reads of the waits that join then are spread over these shares of the first
   * look (from the moment it was learned on, for those that waited for it), rather than all at one
   * guess from a few effects: the earliest readers' hits and misses move the first look of those
   * still waiting to read.
   */
  learningFirstLook: [0.6, 1.3] as const,
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
  /**
   * A watch reads this share of its window apart, the first that long after its start: with all of
   * it, once, at the end. A state, once shown, stays, so that read sees whatever came in the window.
   */
  watchShare: 1,
  /** Answers that no amount of waiting changes: fail at once instead of at the deadline. */
  failFastStatuses: [400, 401, 403] as readonly number[],
  excerptChars: 500,
};

/**
 * What earlier waits of the run learned: per transition, when its effects became visible after
 * their writes, and whether a wait is scouting for the rest while nothing is known. A wait knows
 * its effect's time only as an interval: after its last read that did not see it (or the write,
 * when its first read saw it), by the read that did. The waits under way count too, as effects not
 * seen by their last read: while the run's first waits are under way the finished ones are those
 * whose effects came early, and taking them alone would set every later first look too early. The
 * first look is a quantile of the estimate of all of them (TimesEstimate), recomputed from every
 * interval as they come, so no wait's time is ever fixed by a guess made when little was known.
 */
export class ConsistencyHistory {
  private readonly samples = new Map<string, EffectTime[]>();
  /** Per transition, whether each recent first read aimed at the first look saw its effect. */
  private readonly firstReads = new Map<string, boolean[]>();
  /** Waits of this process under way that have read and not yet seen their effect: when, after the write. */
  private readonly notSeenYet = new Map<object, { transition: string; ms: number }>();
  /** Bumped whenever a time is kept or a wait under way read: an estimate of an earlier version is stale. */
  private version = 0;
  /** Per transition, the estimate every wait without a read under way of its own shares, at `version`. */
  private readonly estimates = new Map<string, { version: number; estimate: TimesEstimate }>();
  private scouts = 0;
  private scoutingSince?: number;
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
      const message = event.data as { transition: string; time: EffectTime } | { transition: string; firstReadSaw: boolean };
      if ('time' in message) history.keep(message.transition, message.time);
      else history.keepFirstRead(message.transition, message.firstReadSaw);
    };
    return history;
  }

  /**
   * An effect of `transition` became visible by `byMs` after its write, and after `afterMs` (the
   * last read that did not see it; 0 when the first read saw it; `byMs` when the time is exact).
   */
  record(transition: string, byMs: number, afterMs = byMs): void {
    const time = { after: afterMs, by: byMs };
    this.keep(transition, time);
    this.channel?.postMessage({ transition, time });
  }

  /**
   * Starts from what an earlier run against the same target learned, as if its waits had been this
   * run's earliest: no wait scouts, and this run's own times replace them as they come.
   */
  startFrom(times: Readonly<Record<string, readonly EffectTime[]>>): void {
    for (const [transition, each] of Object.entries(times)) for (const time of each.slice(-POLLING.historySize)) this.keep(transition, time);
  }

  /** What the history holds now, per transition: for the next run against the same target. */
  learned(): Record<string, EffectTime[]> {
    return Object.fromEntries([...this.samples].map(([transition, times]) => [transition, [...times]]));
  }

  /** A wait for `transition` whose first read was aimed at the first look saw its effect with it, or not. */
  firstRead(transition: string, saw: boolean): void {
    this.keepFirstRead(transition, saw);
    this.channel?.postMessage({ transition, firstReadSaw: saw });
  }

  /** The wait `wait`, under way, read `notYetAfterMs` after its write and did not see the effect of `transition` yet. */
  notYet(wait: object, transition: string, notYetAfterMs: number): void {
    this.notSeenYet.set(wait, { transition, ms: notYetAfterMs });
    this.version += 1;
  }

  /** The wait `wait` is over: what it saw, if anything, is `record`ed. */
  settled(wait: object): void {
    if (this.notSeenYet.delete(wait)) this.version += 1;
  }

  /**
   * When a wait for `transition` reads first, in ms after the write: the first-look quantile of its
   * own times, or of every transition's while it has fewer than `ownFrom`, waits under way included
   * but `asking` (a wait's own misses do not push its next read later); undefined before any wait saw
   * an effect.
   */
  firstLookMs(transition: string, asking?: object): number | undefined {
    const firstLook = this.estimate(transition, asking).quantile(POLLING.firstLookQuantile);
    return firstLook === undefined ? undefined : Math.round(firstLook * this.earlier(transition));
  }

  /**
   * `firstLookMs` of an effect that comes after another one, `follows`, whose sighting the wait
   * does not await: timed from the write, until it has times of its own, its first look is that
   * effect's and then its own after it (a subscription after identification, both learned from
   * waits that saw the one and then the other): every transition's together would be half of it.
   */
  firstLookAfterMs(transition: string, follows: string, asking?: object): number | undefined {
    if (ownOrAll(this.samples, transition, POLLING.ownFrom).own) return this.firstLookMs(transition, asking);
    const [first, then] = [this.firstLookMs(follows, asking), this.firstLookMs(afterTheEffectItFollows(transition), asking)];
    return first === undefined || then === undefined ? this.firstLookMs(transition, asking) : first + then;
  }

  /**
   * How much earlier than the estimate's quantile the first look comes: by as much as the recent
   * first reads aimed at it saw their effects more often than the quantile plans. Those reads' hits
   * say only that each effect came before its read, so an estimate that learned nothing earlier (the
   * run's first effects all came late, or an earlier run's did) stays late however often they hit;
   * reads brought earlier miss or hit there, and the estimate learns from them.
   */
  private earlier(transition: string): number {
    const { entries: outcomes } = ownOrAll(this.firstReads, transition, POLLING.firstReadsFrom);
    if (outcomes.length < POLLING.firstReadsFrom) return 1;
    const hits = outcomes.filter(Boolean).length / outcomes.length;
    return Math.max(POLLING.earliestFirstLookShare, 1 - Math.max(0, hits - POLLING.firstLookQuantile - POLLING.firstReadHitsMargin));
  }

  /** The times of `transition`, or of every transition's while it has fewer than `ownFrom`, with the waits under way but `asking`. */
  private estimate(transition: string, asking?: object): TimesEstimate {
    // The waits that have not read yet (the run's first ones look every `followerCheckMs`) share one.
    const shared = asking === undefined || !this.notSeenYet.has(asking);
    const cached = shared ? this.estimates.get(transition) : undefined;
    if (cached?.version === this.version) return cached.estimate;
    const { entries: seen, own } = ownOrAll(this.samples, transition, POLLING.ownFrom);
    const notSeen = [...this.notSeenYet.entries()].flatMap(([wait, { transition: of, ms }]) => (wait !== asking && (!own || of === transition) ? [{ after: ms, by: Infinity }] : []));
    const estimate = new TimesEstimate([...seen, ...notSeen]);
    if (shared) this.estimates.set(transition, { version: this.version, estimate });
    return estimate;
  }

  /** How many effects the first look of `transition` is taken from. */
  learnedFrom(transition: string): number {
    return ownOrAll(this.samples, transition, POLLING.ownFrom).entries.length;
  }

  /** Becomes one of the waits that read while nothing is known, at `now` (epoch ms), unless enough already do. */
  claimScout(now: number): boolean {
    this.scoutingSince ??= now;
    const scouting = now - this.scoutingSince;
    const relays = scouting < POLLING.scoutRelayFromMs ? 0 : 1 + Math.floor(Math.log(scouting / POLLING.scoutRelayFromMs) / Math.log(POLLING.scoutRelayFactor));
    if (this.scouts >= POLLING.scouts + relays) return false;
    this.scouts += 1;
    return true;
  }

  releaseScout(): void {
    this.scouts -= 1;
  }

  private keepFirstRead(transition: string, saw: boolean): void {
    const outcomes = this.firstReads.get(transition) ?? [];
    outcomes.push(saw);
    if (outcomes.length > POLLING.firstReadsKept) outcomes.shift();
    this.firstReads.set(transition, outcomes);
  }

  private keep(transition: string, time: EffectTime): void {
    const times = this.samples.get(transition) ?? [];
    times.push(time);
    if (times.length > POLLING.historySize) times.shift();
    this.samples.set(transition, times);
    this.version += 1;
  }
}

/** A transition's own entries once it has `from` of them; before, every transition's together (a handful says little). */
function ownOrAll<T>(byTransition: ReadonlyMap<string, readonly T[]>, transition: string, from: number): { entries: readonly T[]; own: boolean } {
  const own = byTransition.get(transition) ?? [];
  return own.length >= from ? { entries: own, own: true } : { entries: [...byTransition.values()].flat(), own: false };
}

/** When one effect became visible, in ms after its write: after `after`, by `by` (Infinity: not seen yet). */
export interface EffectTime {
  after: number;
  by: number;
}

/**
 * The distribution of the times of effects, each known as an interval (EffectTime): an exact time,
 * one seen by a wait's first read (after 0), one between a read that missed it and one that saw it,
 * or one not seen yet (by Infinity). Turnbull's estimate: the weight of all of them lies on the
 * innermost intervals (where a start of some interval is followed by an end of some interval), in
 * the shares that explain the intervals best (self-consistency, by repeated averaging). With exact
 * and not-yet-seen times only this is Kaplan-Meier. For the quantiles, an exact time stands at the
 * middle of its weight and a wider interval spreads its weight evenly, with straight lines between
 * (and the first time below the first weight).
 */
export class TimesEstimate {
  private readonly points: { ms: number; at: number }[] = [];
  /** The weight of the times seen: below 1 when effects not seen yet lie beyond the last seen one. */
  private readonly seenWeight: number;
  private readonly latestKnownMs: number;

  constructor(times: readonly EffectTime[]) {
    const innermost = innermostIntervals(times);
    const weights = selfConsistentWeights(times, innermost);
    let below = 0;
    for (const [index, { from, to }] of innermost.entries()) {
      const weight = weights[index]!;
      if (to === Infinity || weight === 0) continue;
      if (from === to) this.points.push({ ms: from, at: below + weight / 2 });
      else this.points.push({ ms: from, at: below }, { ms: to, at: below + weight });
      below += weight;
    }
    this.seenWeight = below;
    this.latestKnownMs = Math.max(0, ...times.flatMap(({ after, by }) => (by === Infinity ? [after] : [after, by])));
  }

  /**
   * The `q` quantile: undefined with nothing seen; when the effects not seen yet beyond the last
   * seen one hold more than `1 - q` of the weight, it is later than anything known, and the latest
   * time known stands for it.
   */
  quantile(q: number): number | undefined {
    const last = this.points.at(-1);
    if (last === undefined) return undefined;
    if (q >= last.at) return q > this.seenWeight ? Math.max(last.ms, this.latestKnownMs) : last.ms;
    const above = this.points.findIndex((point) => point.at > q);
    if (above === 0) return this.points[0]!.ms;
    const [from, to] = [this.points[above - 1]!, this.points[above]!];
    return Math.round(from.ms + ((to.ms - from.ms) * (q - from.at)) / (to.at - from.at));
  }
}

/** Where a start of an interval is followed by an end, in order (at equal times starts come first: the intervals are closed). */
function innermostIntervals(times: readonly EffectTime[]): { from: number; to: number }[] {
  const ends = times.flatMap(({ after, by }) => [{ ms: after, start: true }, { ms: by, start: false }]).sort((a, b) => a.ms - b.ms || Number(b.start) - Number(a.start));
  return ends.flatMap((end, index) => (end.start && ends[index + 1]?.start === false ? [{ from: end.ms, to: ends[index + 1]!.ms }] : []));
}

/**
 * The weight of each innermost interval: each time hands its share (1/n) to the innermost
 * intervals within it in proportion to their weights, until the weights no longer change.
 */
function selfConsistentWeights(times: readonly EffectTime[], innermost: readonly { from: number; to: number }[]): number[] {
  const within = times.map(({ after, by }) => innermost.flatMap(({ from, to }, index) => (after <= from && to <= by ? [index] : [])));
  let weights = innermost.map(() => 1 / innermost.length);
  for (let round = 0; round < TURNBULL_ROUNDS; round++) {
    const next = innermost.map(() => 0);
    for (const indices of within) {
      const total = indices.reduce((sum, index) => sum + weights[index]!, 0);
      for (const index of indices) next[index]! += weights[index]! / total / times.length;
    }
    const change = Math.max(...next.map((weight, index) => Math.abs(weight - weights[index]!)));
    weights = next;
    if (change < 1e-6) break;
  }
  return weights;
}

/** At most this many rounds of averaging: a few dozen times settle within a few hundred. */
const TURNBULL_ROUNDS = 500;

// The default for every wait. With the contract project's `isolate: false` a worker also keeps it
// across spec files, so later files start with what earlier ones learned.
const runHistory = ConsistencyHistory.shared('contract-suite:consistency');

/** The run's waits start from what an earlier run against the same target learned (support/readings/learned-times.ts). */
export function startFromEarlierRun(times: Readonly<Record<string, readonly EffectTime[]>>): void {
  runHistory.startFrom(times);
}

/** What the run's waits have learned, per transition. */
export function learnedByThisRun(): Record<string, EffectTime[]> {
  return runHistory.learned();
}

/** The documented transitions whose time to consistency the run measures (reports/observed/timings.json). */
export type Transition = 'create' | 'update' | 'merge' | 'remove' | 'delete' | 'relationship-death' | 'relationship-deregistration' | 'identification' | 'subscription' | 'subscription-update';

/** A wait for the effect of a write: which transition, and when the write was acknowledged. */
export interface AwaitedTransition {
  name: Transition;
  /** Epoch ms of the write's answer: time to consistency is measured from it. */
  since: number;
  /**
   * Epoch ms when an effect this one follows was seen (a subscription follows identification): the
   * reads are timed from it, and the run learns these times apart from those counted from a write.
   */
  after?: number;
  /**
   * An effect this one follows that the wait does not await (a subscription follows identification):
   * its reads are timed from the write, and until the run has times of its own for it, its first
   * look is that effect's and then its own after it (ConsistencyHistory.firstLookAfterMs).
   */
  follows?: Transition;
}

/** What the run learns the times of an effect timed from the sighting of the one it follows as. */
function afterTheEffectItFollows(transition: string): string {
  return `${transition} (after the effect it follows)`;
}

export interface WaitOptions {
  timeoutMs: number;
  clock?: Clock;
  random?: () => number;
  /** Defaults to the history shared by the waits of this run's workers. */
  history?: ConsistencyHistory;
  transition?: AwaitedTransition;
  /**
   * Tells the wait of every answer that reads for other waits bring (one list answers every wait
   * on it); returns how to stop. An answer that shows the wait's state is its next attempt, at
   * once, instead of a read of its own at its next planned time (support/verbs/consumers.ts).
   */
  othersReads?: (heard: (answer: ApiResponse) => void) => () => void;
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

/** What a read is told about its attempt. */
export interface ReadAttempt {
  /** The deadline has come: no read follows this one, so it must be able to see the awaited state wherever it is. */
  final: boolean;
  /** Half the wait's time has passed: a read that looks only where the state usually shows should look everywhere now. */
  pastHalfway: boolean;
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
  read: (attempt: ReadAttempt) => Promise<ApiResponse>,
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
  read: (attempt: ReadAttempt) => Promise<ApiResponse>,
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
  read: (attempt: ReadAttempt) => Promise<ApiResponse>,
  until: (response: ApiResponse) => T | undefined | null | false,
  options: WaitOptions,
  atDeadline: AtDeadline<D>,
): Promise<Consistent<T> | D> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const history = options.history ?? runHistory;
  const started = clock.now();
  const transition = options.transition;
  // Reads are timed, and times learned, from the write, or from the effect this one follows; any other wait's from its start.
  const origin = transition?.after ?? transition?.since ?? started;
  /** ms since the origin of a moment given in ms since the wait started. */
  const sinceOrigin = (at: number) => started + at - origin;
  const learnedAs = transition && (transition.after === undefined ? transition.name : afterTheEffectItFollows(transition.name));
  const follows = transition?.after === undefined ? transition?.follows : undefined;
  const notYetStatuses: number[] = [];
  let notYetAt: number | undefined;
  let scouting = false;
  const waitKey = {};
  const [earliest, latest] = POLLING.learningFirstLook;
  const firstLookShare = earliest + random() * (latest - earliest);
  let waitedForFirstLook = false;
  /** The first read was planned at the first look (not a scout's, nor one whose write was older than it). */
  let aimed: boolean | undefined;
  let firstLookKnownAt: number | undefined;
  const remaining = () => options.timeoutMs - (clock.now() - started);
  /** An answer read for another wait, since this wait's last read, that shows the awaited state: this wait's next attempt. */
  let shownElsewhere: ApiResponse | undefined;
  let wake: (() => void) | undefined;
  const stopHearing = options.othersReads?.((answer) => {
    if (!holds(until(answer))) return;
    shownElsewhere = answer;
    wake?.();
  });
  const nap = (ms: number): Promise<void> =>
    shownElsewhere
      ? Promise.resolve()
      : new Promise<void>((woken) => {
          wake = woken;
          // Whole milliseconds, as timers sleep: a fraction of one would not move a clock that counts in them.
          void clock.sleep(Math.ceil(ms)).then(woken);
        }).finally(() => (wake = undefined));
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
      if (shownElsewhere) return;
      const firstLookMs = learnedAs === undefined ? undefined : follows ? history.firstLookAfterMs(learnedAs, follows, waitKey) : history.firstLookMs(learnedAs, waitKey);
      // Nothing learned yet: one wait reads for all of them, the others look again shortly.
      if (transition && firstLookMs === undefined && !scouting && !(scouting = history.claimScout(clock.now()))) {
        if (remaining() <= 0) return;
        waitedForFirstLook = true;
        await nap(Math.min(remaining(), POLLING.followerCheckMs));
        continue;
      }
      const learning = learnedAs !== undefined && history.learnedFrom(learnedAs) < POLLING.learnedFrom;
      // Learning, a first read comes at this wait's own share of the first look, which is looked at
      // again until then: the waits that read earlier move it with what they saw or did not see yet.
      if (firstRead && learning && firstLookMs !== undefined && !scouting) {
        // A wait that waited for the first look to be learned spreads its first read as far after
        // that moment as its share lies past the earliest: the waits that join together then do
        // not all read at once, where most would miss before any of them could move the first look.
        firstLookKnownAt ??= waitedForFirstLook ? clock.now() - origin : 0;
        const dueIn = Math.max(firstLookMs * firstLookShare, firstLookKnownAt + firstLookMs * (firstLookShare - earliest)) - (clock.now() - origin);
        aimed ??= dueIn > 0;
        if (dueIn <= 0 || remaining() <= 0) return;
        await nap(Math.min(remaining(), dueIn, POLLING.followerCheckMs));
        continue;
      }
      if (firstRead && firstLookMs !== undefined && !scouting) aimed ??= clock.now() - origin < firstLookMs;
      const delay = Math.max(delayAtLeast, pollDelay({ sinceWriteMs: clock.now() - origin, firstRead, firstLookMs, random: random(), minIntervalMs: atDeadline.minIntervalMs, scouting, learning }));
      // The last attempt lands on the deadline rather than past it.
      if (delay > 0 && remaining() > 0) await nap(Math.min(remaining(), delay));
      return;
    }
  };
  return step(title, async () => {
    try {
      let askedToWait = 0;
      for (let attempts = 1; ; attempts++) {
        if (transition || attempts > 1 || atDeadline.minIntervalMs !== undefined) await untilNextRead(attempts === 1, askedToWait);
        const asked = clock.now() - started;
        const heard = shownElsewhere;
        shownElsewhere = undefined;
        const title = `attempt ${attempts} after ${asked} ms${heard ? ": the answer another wait's read had" : ''}`;
        const { response, value } = await step(title, async (handle) => {
          const answer = heard ?? (await read({ final: remaining() <= 0, pastHalfway: remaining() <= options.timeoutMs / 2 }));
          const seen = until(answer);
          await handle.rename(`${title}: ${answer.status} (${holds(seen) ? 'holds' : 'not yet'})`);
          return { response: answer, value: seen };
        });
        const at = sentAtOf(response, started) ?? asked;
        const saw = holds(value);
        if (attempts === 1 && aimed && learnedAs !== undefined) history.firstRead(learnedAs, saw);
        if (saw) {
          // The read that saw it was sent at `at`; its own duration is not part of the delay. Another
          // wait's read can have been sent before this wait's last miss (both held at the pace).
          if (learnedAs !== undefined) {
            history.record(learnedAs, sinceOrigin(at), notYetAt === undefined ? 0 : sinceOrigin(Math.min(notYetAt, at)));
          }
          return { value, response, attempts, elapsedMs: finish('consistent', attempts, at) };
        }
        notYetStatuses.push(response.status);
        notYetAt = at;
        if (learnedAs !== undefined) history.notYet(waitKey, learnedAs, sinceOrigin(at));
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
      stopHearing?.();
      if (scouting) history.releaseScout();
      history.settled(waitKey);
    }
  });
}

/** What `until` returns for an answer that shows the awaited state. */
function holds<T>(seen: T | undefined | null | false): seen is T {
  return seen !== undefined && seen !== null && seen !== false;
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
 * Delay before the next read: `sinceWriteMs` since the write (or the wait's start), `firstRead`
 * for the wait's first, `firstLookMs` when the run has learned when effects come, `random` in [0, 1).
 */
export function pollDelay(plan: { sinceWriteMs: number; firstRead: boolean; firstLookMs?: number; random: number; minIntervalMs?: number; scouting?: boolean; learning?: boolean }): number {
  const jitter = 1 + POLLING.jitter * (2 * plan.random - 1);
  const untilFirstLook = plan.firstLookMs === undefined ? 0 : plan.firstLookMs - plan.sinceWriteMs;
  if (plan.firstRead) return Math.round(untilFirstLook > 0 ? untilFirstLook * jitter : (plan.minIntervalMs ?? 0));
  const share = plan.firstLookMs !== undefined ? (plan.learning ? POLLING.shareWhileLearning : POLLING.shareAfterFirstLook) : plan.scouting ? POLLING.scoutShare : POLLING.shareOfElapsed;
  const interval = Math.min(POLLING.maxIntervalMs, Math.max(POLLING.minIntervalMs, plan.sinceWriteMs * share * jitter));
  // A read before the first look (a scout's, or a first read the jitter brought forward) is followed by one at it at the earliest.
  return Math.round(Math.max(interval, untilFirstLook, plan.minIntervalMs ?? 0));
}

function describe(response: ApiResponse): string {
  const body = JSON.stringify(redact(response.body)) ?? '(no body)';
  const excerpt = body.length > POLLING.excerptChars ? `${body.slice(0, POLLING.excerptChars)}…` : body;
  return `${response.status} ${excerpt}`;
}
