// Owns the pace of one client: how fast every request of that client may be sent, learned from the
// target's answers. A shared sandbox limits how fast one client may call it and says so with 429 (or
// 503) and Retry-After, sometimes with rate-limit headers. One throttled caller is a sign for all of
// them: the pace pauses every caller until the Retry-After has passed, then spaces their requests at
// the rate the target was seen to accept, and raises that rate again only slowly and only while it
// holds requests back. Knowing nothing, it starts as TCP does: a few requests in flight, one more
// for every one answered, so that a run whose every test starts at once does not open with a burst
// the target refuses; a burst of throttled answers ends that start, and so does a window wide enough
// to say the target is not limiting. The retry decision (support/transport/retry.ts) says whether
// and until when a request is repeated; the pace says when any request may go.
import type { Clock } from './http.js';

/** How the pace learns, as data. */
export const PACING = {
  /** Requests in flight at the start, before any answer came... */
  initialWindow: 4,
  /** ...one more for each accepted answer, until this many, or for this long without a refusal: then the target is not what limits the run. */
  openWindow: 64,
  openAfterMs: 500,
  /** What the target accepted is counted over this window before a throttled request. */
  windowMs: 1_000,
  /** The pace is set this share below the rate the target accepted, so it is not throttled again at once. */
  margin: 0.9,
  /**
   * A throttled answer lowers the pace only when at least this many, and this share, of the
   * window's answers were throttled: one refusal now and then (a busy moment, a transient fault)
   * is honoured by its Retry-After alone; a burst of them says the rate is too high.
   */
  minThrottled: 2,
  minThrottledShare: 0.25,
  /** The pace never falls below this (requests a second)... */
  minRps: 0.2,
  /**
   * ...nor below what the target accepted over this longer span. Transient refusals that happen to
   * bunch in one short window (10 % faults, a client slowed by a busy machine) would otherwise lower
   * the pace step by step to its floor, while the target kept accepting what it had all along; a
   * real limit accepts no more than itself over any span, so this floor never lifts the pace above it.
   */
  acceptedSpanMs: 10_000,
  /** Without a throttled answer for this long, while the pace held requests back, it rises by `increase`. */
  quietMs: 5_000,
  increase: 1.1,
  /** A throttled answer without Retry-After pauses every caller this long. */
  defaultPauseMs: 1_000,
  /** A rate-limit policy over a window up to this long sets the pace; a longer one is a quota a run may never use up (readRateLimitHeaders). */
  policyWindowMaxMs: 60_000,
};

/** What a target says about its limit in response headers, when it says anything. */
export interface RateLimitHeaders {
  /** Requests a second the target allows: its strictest policy that names a window short enough to pace by (`RateLimit-Policy: 10;w=1`). */
  perSecond?: number;
  /** The quota is used up: come back after this many ms (`RateLimit-Remaining: 0` with `RateLimit-Reset`). */
  resetMs?: number;
}

/**
 * Reads the rate-limit headers in common use, in the forms the IETF drafts gave them over the years
 * and gateways still send:
 *  - policies, each a quota with its window in seconds: `RateLimit-Policy` / `X-RateLimit-Policy` as
 *    `10;w=1` (several: `1;w=1, 15000;w=2592000`) or as `"burst";q=10;w=1`, and the policies after the
 *    limit in `RateLimit-Limit` / `X-RateLimit-Limit` (`20, 20;w=60`);
 *  - a quota used up: `RateLimit-Remaining` / `X-RateLimit-Remaining` 0 with `RateLimit-Reset` /
 *    `X-RateLimit-Reset` (seconds from now, or an epoch time in seconds), or `RateLimit` as
 *    `"burst";r=0;t=30`.
 * A limit without its window (`X-RateLimit-Limit: 5000` alone: a second, a minute or an hour?) says
 * nothing about a rate, and a policy over a window longer than `policyWindowMaxMs` is a quota, not a
 * pace: spread over its window, a daily one would hold a run to a request every few minutes that it
 * would never use up. Such a quota is honoured once used up, by its reset or a 429's Retry-After.
 */
export function readRateLimitHeaders(headers: Record<string, string>, nowMs: number): RateLimitHeaders {
  const read: RateLimitHeaders = {};
  const policies = [headers['ratelimit-policy'], headers['x-ratelimit-policy'], headers['ratelimit-limit'], headers['x-ratelimit-limit']].flatMap((field) => (field === undefined ? [] : listItems(field)));
  const rates = policies.flatMap(({ value, params }) => {
    const quota = Number(params.get('q') ?? value);
    const windowS = Number(params.get('w'));
    return quota > 0 && windowS > 0 && windowS * 1000 <= PACING.policyWindowMaxMs ? [quota / windowS] : [];
  });
  if (rates.length > 0) read.perSecond = Math.min(...rates);
  const remaining = headers['ratelimit-remaining'] ?? headers['x-ratelimit-remaining'];
  const reset = Number(headers['ratelimit-reset'] ?? headers['x-ratelimit-reset']);
  if (remaining?.trim() === '0' && Number.isFinite(reset) && reset >= 0) {
    // A reset larger than a day in seconds is an epoch time (GitHub, Twitter), not a delay.
    read.resetMs = reset > 86_400 ? Math.max(0, reset * 1000 - nowMs) : reset * 1000;
  }
  const usedUp = listItems(headers['ratelimit'] ?? '').flatMap(({ params }) => (params.get('r') === '0' && Number(params.get('t')) >= 0 ? [Number(params.get('t')) * 1000] : []));
  if (usedUp.length > 0) read.resetMs = Math.max(read.resetMs ?? 0, ...usedUp);
  return read;
}

/** The items of a header list (`a;k=v, "b";k=v`): each item's value, unquoted, and its parameters. */
function listItems(field: string): { value: string; params: Map<string, string> }[] {
  return field.split(',').map((item) => {
    const [value = '', ...params] = item.split(';').map((part) => part.trim());
    const named = params.map((param): [string, string] => {
      const at = param.indexOf('=');
      return at < 0 ? [param.toLowerCase(), ''] : [param.slice(0, at).trim().toLowerCase(), param.slice(at + 1).trim()];
    });
    return { value: value.replace(/^"(.*)"$/, '$1'), params: new Map(named) };
  });
}

/** One answer, as the pace learns from it. */
export interface PacedAnswer {
  /** When the request was sent (the clock's ms). */
  sentAt: number;
  /** The target throttled it (support/transport/retry.ts `isThrottled`). */
  throttled: boolean;
  retryAfterMs?: number;
  headers?: Record<string, string>;
}

/** What a pace did so far, for the message of a request still throttled at its deadline. */
export interface PaceState {
  /** Requests a second the pace holds its client to; undefined while it holds nothing back. */
  rps?: number;
  /** The ceiling set from the start (CONTRACT_MAX_RPS). */
  ceilingRps?: number;
  throttledAnswers: number;
  /** Since the first throttled answer; undefined before one came. */
  throttledForMs?: number;
}

export class Pace {
  private rps: number | undefined;
  /** Requests in flight allowed while starting; undefined once the start is over. */
  private window: number | undefined;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private startTimer: Promise<void> | undefined;
  private pausedUntil = 0;
  private nextSlotAt = 0;
  /** How far pauses have pushed the queue back in all (ms): a request that waits keeps its place behind them. */
  private pushedBackMs = 0;
  private lastChangeAt: number;
  private readonly startedAt: number;
  private heldBack = false;
  private throttledAnswers = 0;
  private throttledSince: number | undefined;
  /** The answers of the last window or so: what the target accepted and refused. */
  private recent: { sentAt: number; throttled: boolean }[] = [];

  constructor(
    private readonly clock: Clock,
    /** Requests a second never to exceed, from the start; undefined: none until the target says. */
    private readonly ceilingRps?: number,
  ) {
    this.rps = ceilingRps;
    // A ceiling spaces requests from the first one: no burst to guard against.
    this.window = ceilingRps === undefined ? PACING.initialWindow : undefined;
    this.lastChangeAt = clock.now();
    this.startedAt = clock.now();
  }

  /**
   * Resolves when the next request of this client may be sent: within the starting window, after
   * any pause, at the pace's spacing; with how long it waited for the pauses and the spacing, the
   * target's rate (the start's window is the run's own caution, not counted). Every such acquire is
   * matched by one `finished`. Resolves false, at once, when it would have to wait past `deadline`
   * (the clock's ms): the request cannot go in time.
   */
  async acquire(deadline = Infinity): Promise<number | false> {
    if (this.window !== undefined && this.inFlight >= this.window) this.endStartInTime();
    while (this.window !== undefined && this.inFlight >= this.window) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
    const placed = this.clock.now();
    let at = Math.max(placed, this.pausedUntil, this.nextSlotAt);
    for (let pushedBack = this.pushedBackMs, queued = false; ; pushedBack = this.pushedBackMs, queued = true) {
      const now = this.clock.now();
      // Only a wait can miss the deadline: a request free to go now goes, however late it was asked for.
      if (at > now && at > deadline) {
        this.finished();
        return false;
      }
      // The slot is taken once the request is known to go in time: one refused at once takes none.
      if (!queued) this.nextSlotAt = at + (this.rps === undefined ? 0 : 1000 / this.rps);
      if (at <= now) return now - placed;
      this.heldBack = true;
      await this.clock.sleep(at - now);
      // A throttled answer that came meanwhile paused everyone again: the whole queue moves back by
      // the pause, in its order. Queueing anew behind it instead sent a request that every pause
      // caught to the end of the queue again, until its deadline passed with the run half done.
      at += this.pushedBackMs - pushedBack;
    }
  }

  /**
   * The start ends by time too, not only as answers come: requests that wait for something of their
   * own (an answer that never comes) cannot hold the others back past it.
   */
  private endStartInTime(): void {
    this.startTimer ??= this.clock.sleep(Math.max(0, this.startedAt + PACING.openAfterMs - this.clock.now())).then(() => {
      this.window = undefined;
      for (const wake of this.waiting.splice(0)) wake();
    });
  }

  /** The request let go by `acquire` ended, with this answer, or without one (nothing answered). */
  finished(answer?: PacedAnswer): void {
    this.inFlight -= 1;
    if (answer) this.observe(answer);
    // Those waiting for the window look again (they queue anew if it is still full).
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Learns from one answer of this client. */
  observe(answer: PacedAnswer): void {
    const now = this.clock.now();
    this.recent.push({ sentAt: answer.sentAt, throttled: answer.throttled });
    this.recent = this.recent.filter((entry) => entry.sentAt >= now - Math.max(2 * PACING.windowMs, PACING.acceptedSpanMs));
    const said = readRateLimitHeaders(answer.headers ?? {}, now);
    if (said.perSecond !== undefined) this.lower(said.perSecond * PACING.margin, now);
    if (said.resetMs !== undefined) this.pause(now + said.resetMs);
    if (answer.throttled) this.throttled(answer, now);
    else if (this.window !== undefined) this.widen(now);
    else this.quiet(now);
  }

  private widen(now: number): void {
    // Answers that come slowly (a busy start of the run) must not keep the start going for long.
    const open = this.window! + 1 >= PACING.openWindow || now - this.startedAt >= PACING.openAfterMs;
    this.window = open ? undefined : this.window! + 1;
  }

  /** Until when every request of this client waits (a Retry-After); in the past when none does. */
  pausedUntilMs(): number {
    return this.pausedUntil;
  }

  state(): PaceState {
    const throttledForMs = this.throttledSince === undefined ? undefined : this.clock.now() - this.throttledSince;
    return { rps: this.rps, ceilingRps: this.ceilingRps, throttledAnswers: this.throttledAnswers, throttledForMs };
  }

  private throttled(answer: PacedAnswer, now: number): void {
    this.throttledAnswers += 1;
    this.throttledSince ??= now;
    this.pause(now + (answer.retryAfterMs ?? PACING.defaultPauseMs));
    const window = this.recent.filter((entry) => entry.sentAt > answer.sentAt - PACING.windowMs && entry.sentAt <= answer.sentAt);
    const refused = window.filter((entry) => entry.throttled).length;
    const acceptedAnswers = window.length - refused;
    const accepted = acceptedAnswers * (1000 / PACING.windowMs);
    // One refusal now and then (a transient fault) is honoured by its Retry-After alone, in the start too.
    if (refused < PACING.minThrottled || refused < PACING.minThrottledShare * window.length) return;
    if (this.window !== undefined) {
      // In the start the run's own window bounds what the target could accept, so what it accepted
      // is its rate only once it refused at least as much (and accepted enough to guess from: the
      // refusals of the very first requests only pause). Ended by a few faults among few answers,
      // the start would hold the rest of the run to its own caution.
      if (acceptedAnswers < PACING.initialWindow || refused < acceptedAnswers) return;
      this.window = undefined;
      return this.lower(accepted * PACING.margin, now);
    }
    // Only a request sent at the present pace says the pace is too fast; the many refusals of one
    // burst lower it once.
    if (answer.sentAt < this.lastChangeAt) return;
    this.lower(Math.max(PACING.minRps, accepted * PACING.margin, this.acceptedOverSpan(answer.sentAt) * PACING.margin), now);
  }

  /** Requests a second the target accepted over the span before `sentAt`, or over the run so far when it is shorter. */
  private acceptedOverSpan(sentAt: number): number {
    const from = Math.max(this.startedAt, sentAt - PACING.acceptedSpanMs);
    const accepted = this.recent.filter((entry) => !entry.throttled && entry.sentAt >= from && entry.sentAt <= sentAt).length;
    // A span of under a window says no more than the window itself does.
    return sentAt - from < PACING.windowMs ? 0 : (accepted * 1000) / (sentAt - from);
  }

  private quiet(now: number): void {
    if (this.rps === undefined || now - this.lastChangeAt < PACING.quietMs) return;
    // A pace that held nothing back is not what limits the run: raising it would only be a guess.
    if (this.heldBack) this.rps = Math.min(this.ceilingRps ?? Infinity, this.rps * PACING.increase);
    this.heldBack = false;
    this.lastChangeAt = now;
  }

  private lower(rps: number, now: number): void {
    const lowered = Math.min(this.ceilingRps ?? Infinity, this.rps ?? Infinity, rps);
    if (lowered === this.rps) return;
    this.rps = lowered;
    this.lastChangeAt = now;
    this.heldBack = false;
  }

  private pause(until: number): void {
    const now = this.clock.now();
    const longer = until - Math.max(now, this.pausedUntil);
    if (longer <= 0) return;
    this.pausedUntil = until;
    // The requests waiting for their slots, and the slots still to give, move back by the pause.
    this.pushedBackMs += longer;
    this.nextSlotAt = Math.max(this.nextSlotAt + longer, until);
  }
}

// One pace per client and target for the whole process: every test, every worker's API client and
// every token request of that client share it.
const paces = new Map<string, Pace>();

/** The pace of `clientId` at `origin` in this process; `ceilingRps` applies when it is first created. */
export function sharedPace(origin: string, clientId: string, clock: Clock, ceilingRps?: number): Pace {
  const key = `${origin} ${clientId}`;
  let pace = paces.get(key);
  if (!pace) paces.set(key, (pace = new Pace(clock, ceilingRps)));
  return pace;
}
