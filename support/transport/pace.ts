// The pace of one client: when each of its requests may be sent. docs/DESIGN.md "The pace" says how, and
// "What each remaining mechanism buys" which measured failure each part answers.
import type { Clock } from './clock.js';

export const PACING = {
  /** Requests in flight at once: a run whose tests all start together opens with no burst. */
  maxInFlight: 4,
  /** This many throttled answers within `burstWindowMs`, and this share of its answers, are a burst... */
  burst: 2,
  burstShare: 0.25,
  burstWindowMs: 1_000,
  /** ...which lowers the rate to this share of what it was, or of what the target accepted in that window. */
  decrease: 0.7,
  minRps: 0.2,
  /**
   * Without a throttled answer for this long, while the rate held requests back, it rises by `increase`. Once the
   * target refused a raise, the next also waits for `quietAnswers` answers, twice as many for each raise refused after,
   * until a burst lowers the rate.
   */
  quietMs: 5_000,
  quietAnswers: 20,
  increase: 1.1,
  /**
   * More than this share of the last `shareOf` answers refused, too far apart for a burst, sets a first rate:
   * `shareDecrease` of what the target accepted over the time those answers took.
   */
  refusedShare: 0.1,
  shareOf: 20,
  shareDecrease: 0.85,
  /** The pause for a throttled answer without Retry-After. */
  defaultPauseMs: 1_000,
};

/** One answer, as the pace learns from it (`throttled`: support/transport/retry.ts `isThrottled`). */
export interface PacedAnswer {
  sentAt: number;
  throttled: boolean;
  retryAfterMs?: number;
}

export class Pace {
  private rps: number | undefined;
  private inFlight = 0;
  private pausedUntil = 0;
  private nextSlotAt = 0;
  private waiting: { placed: number; deadline: number; beyondCap: boolean; go: (heldMs: number | false) => void }[] =
    [];
  private releasing = false;
  private recent: PacedAnswer[] = [];
  private lastAnswers: PacedAnswer[] = [];
  private loweredAt = -Infinity;
  /** The rate before the last raise, and when that raise was made: a refusal of the raised rate undoes it. */
  private raisedFrom: { rps: number; at: number } | undefined;
  /** Since when, and for how many answers, no answer was throttled and the rate was not raised. */
  private quietSince: number;
  private quietAnswers = 0;
  private quietAnswersToRaise = 0;
  private heldBack = false;
  private throttledAnswers = 0;
  private throttledSince: number | undefined;

  constructor(
    private readonly clock: Clock,
    /** Requests a second never to exceed; undefined: none until the target throttles. */
    private readonly ceilingRps?: number,
  ) {
    this.rps = ceilingRps;
    this.quietSince = clock.now();
  }

  /**
   * Resolves, in the order asked (a `retry`, whose deadline already runs, first), with how long the request waited,
   * or false when a pause outlasts the time it had left (the test's timeout bounds its wait behind other requests).
   * Every acquire is matched by one `finished`. A `token` request goes first and past the cap in flight: requests
   * holding a place may wait for it.
   */
  acquire(deadline = Infinity, retry = false, token = false): Promise<number | false> {
    return new Promise((go) => {
      const request = { placed: this.clock.now(), deadline, beyondCap: token, go };
      if (retry || token) this.waiting.unshift(request);
      else this.waiting.push(request);
      void this.release();
    });
  }

  /** Lets waiting requests go as the pause, the rate and the cap in flight allow. */
  private async release(): Promise<void> {
    if (this.releasing) return;
    this.releasing = true;
    for (;;) {
      const now = this.clock.now();
      const late = this.waiting.filter((request) => this.pausedUntil - now > request.deadline - request.placed);
      for (const request of late) request.go(false);
      this.waiting = this.waiting.filter((request) => !late.includes(request));
      if (this.waiting.length === 0) break;
      const at = Math.max(now, this.pausedUntil, this.nextSlotAt);
      if (at > now) {
        this.heldBack ||= at > this.pausedUntil;
        await this.clock.sleep(at - now);
      } else if (this.inFlight >= PACING.maxInFlight && !this.waiting[0]!.beyondCap) {
        break; // `finished` starts again
      } else {
        const next = this.waiting.shift()!;
        this.inFlight += 1;
        this.nextSlotAt = now + (this.rps === undefined ? 0 : 1000 / this.rps);
        next.go(now - next.placed);
      }
    }
    this.releasing = false;
  }

  /** A request let go ended, with this answer or none. */
  finished(answer?: PacedAnswer): void {
    this.inFlight -= 1;
    if (answer) this.observe(answer);
    void this.release();
  }

  /** Until when every request of this client waits for a Retry-After. */
  pausedUntilMs(): number {
    return this.pausedUntil;
  }

  /** What the pace did so far, for the message of a request still throttled at its deadline. */
  state(): { rps?: number; ceilingRps?: number; throttledAnswers: number; throttledForMs?: number } {
    const throttledForMs = this.throttledSince === undefined ? undefined : this.clock.now() - this.throttledSince;
    return { rps: this.rps, ceilingRps: this.ceilingRps, throttledAnswers: this.throttledAnswers, throttledForMs };
  }

  private observe(answer: PacedAnswer): void {
    const now = this.clock.now();
    this.recent = [...this.recent.filter((entry) => entry.sentAt > answer.sentAt - PACING.burstWindowMs), answer];
    this.lastAnswers = [...this.lastAnswers, answer].slice(-PACING.shareOf);
    if (!answer.throttled) {
      this.quietAnswers += 1;
      // Quiet in answers as well as in time once a raise was refused: at one request a second just below the limit, a
      // raise every 5 s was one refusal in six.
      const quiet = now - this.quietSince >= PACING.quietMs && this.quietAnswers >= this.quietAnswersToRaise;
      if (this.rps === undefined || !quiet) return;
      // A rate that held nothing back is not what limits the run: raising it would only be a guess.
      if (this.heldBack) {
        this.raisedFrom = { rps: this.rps, at: now };
        this.rps = Math.min(this.ceilingRps ?? Infinity, this.rps * PACING.increase);
      }
      this.heldBack = false;
      this.quietSince = now;
      this.quietAnswers = 0;
      return;
    }
    this.throttledAnswers += 1;
    this.throttledSince ??= now;
    this.pausedUntil = Math.max(this.pausedUntil, now + (answer.retryAfterMs ?? PACING.defaultPauseMs));
    this.quietSince = now;
    this.quietAnswers = 0;
    // A raise the target refused was one too many: below the limit the rate's own pauses would never end the
    // refusals, each too far from the next to form a burst.
    if (this.raisedFrom && answer.sentAt > this.raisedFrom.at) {
      this.rps = this.raisedFrom.rps;
      this.raisedFrom = undefined;
      this.quietAnswersToRaise = Math.max(PACING.quietAnswers, 2 * this.quietAnswersToRaise);
    }
    // One refusal now and then only pauses; one burst lowers the rate once, for a request sent at the present rate.
    const refused = this.recent.filter((entry) => entry.throttled).length;
    const burst = refused >= PACING.burst && refused >= PACING.burstShare * this.recent.length;
    // Refusals a pause apart never form a burst, yet a share of them over the bar says there is a limit to learn. Only
    // the first rate: cutting a learned one again for shares (the release gate's shards) cost 2.2 times the wall.
    const refusedOfLast = this.lastAnswers.filter((entry) => entry.throttled).length;
    const overShare =
      this.rps === undefined &&
      this.lastAnswers.length === PACING.shareOf &&
      refusedOfLast > PACING.refusedShare * PACING.shareOf;
    if ((!burst && !overShare) || answer.sentAt <= this.loweredAt) return;
    const lowered = burst
      ? Math.min(this.rps ?? Infinity, Math.max(acceptedPerSecond(this.recent, PACING.burstWindowMs), PACING.minRps)) *
        PACING.decrease
      : Math.max(acceptedPerSecond(this.lastAnswers, now - this.lastAnswers[0]!.sentAt), PACING.minRps) *
        PACING.shareDecrease;
    this.lastAnswers = [];
    this.rps = Math.max(PACING.minRps, lowered);
    this.loweredAt = now;
    this.raisedFrom = undefined;
    this.quietAnswersToRaise = 0;
    this.heldBack = false;
  }
}

/** Answers the target accepted among `answers`, a second, over `spanMs`. */
function acceptedPerSecond(answers: PacedAnswer[], spanMs: number): number {
  return (answers.filter((answer) => !answer.throttled).length * 1000) / Math.max(spanMs, PACING.burstWindowMs);
}

const paces = new Map<string, Pace>();

/** The pace of `clientId` at `origin` for every request of this process; `ceilingRps` applies when it is made. */
export function sharedPace(origin: string, clientId: string, clock: Clock, ceilingRps?: number): Pace {
  const key = `${origin} ${clientId}`;
  if (!paces.has(key)) paces.set(key, new Pace(clock, ceilingRps));
  return paces.get(key)!;
}
