// The pace of one client: when each of its requests may be sent. docs/DESIGN.md "The pace" says how, and
// "What each remaining mechanism buys" which measured failure each part answers.
import type { Clock } from './clock.js';

export const PACING = {
  /** Requests in flight at once: a run whose tests all start together opens with no burst. */
  maxInFlight: 4,
  /**
   * Until a rate is set or the target has accepted this many, one in flight: every request in flight when a limit first
   * refuses is refused too, and shards opening at once against one limit paid that three times (with two in flight, a
   * quarter of a three-shard run's refusals came in the openings).
   */
  openingAnswers: 10,
  /**
   * Each refusal adds 1 to a penalty that every answer multiplies by `penaltyDecay`: reaching `penaltyLimit` is a burst
   * (three refusals within a few answers, or one in six for a while), which random faults of 3 % seldom make.
   */
  penaltyDecay: 0.9,
  penaltyLimit: 2,
  /** A burst lowers the rate to this share of what the target accepted... */
  decrease: 0.7,
  /** ...over this long, if less than the rate: its own rate overstates it when other clients share the limit. */
  acceptedMs: 5_000,
  /**
   * A decrease sets the last limit to what was accepted, but no lower than this share of the one before: a burst says
   * the limit is lower, not how much (a client that sent little, or met a few faults at once, measures far below it).
   */
  limitFloor: 0.8,
  /**
   * A lone refusal at or below the last limit lowers that limit by this share, and the rate with it: clients sharing a
   * limit whose last limits add up past it meet such refusals and seldom a burst, so each gives up a twentieth at a
   * time (with the rate left standing, three shards were refused one request in nine).
   */
  erosion: 0.95,
  /** Below this a pace would take minutes to learn anything. */
  minRps: 0.2,
  /**
   * The rate rises by `increaseRps` a second while it holds requests back and `quietMs` passed without a refusal: the
   * same step for every client sharing a limit, so their shares converge (a step by a share would keep them apart).
   */
  increaseRps: 0.2,
  quietMs: 2_000,
  /**
   * Back at the last limit the rate holds there before rising past it: `firstHoldMs`, twice as long after each probe
   * the limit refused, up to `holdMs` (at 1 a second every probe costs a refusal or two: with 20 s, one in ten was
   * refused), and not at all after a probe that found the target accepting a step past the last limit: the limit
   * moved, as when a shard is left alone.
   */
  firstHoldMs: 5_000,
  holdMs: 25_000,
  /** The pause for a throttled answer without Retry-After. */
  defaultPauseMs: 1_000,
};

/** Where a request waits: a retry (or a token request) first, a later page of a list read next, a new one last. */
export type Turn = 'retry' | 'continues' | 'new';

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
  private waiting: {
    placed: number;
    deadline: number;
    beyondCap: boolean;
    turn: Turn;
    go: (heldMs: number | false) => void;
  }[] = [];
  private releasing = false;
  /** When the client met its first refusal, and until when that pauses it: its rate is then set from the opening. */
  private openedAt: number | undefined;
  private openingUntil: number | undefined;
  private lastAnswers: PacedAnswer[] = [];
  private penalty = 0;
  private loweredAt = -Infinity;
  /** What the target accepted at the last decrease (CUBIC's W_max), and since when the rate has been back at it. */
  private lastLimit = Infinity;
  /**
   * The last limit is the rate a lone refusal met before any was learned, which stops the rise there: shards rising
   * from their openings met a dozen lone refusals before a burst. The next burst measures the limit afresh.
   */
  private limitGuessed = false;
  private heldSince: number | undefined;
  private holdMs = PACING.firstHoldMs;
  /** The rate rose past the last limit after its hold: a refusal or two now end a probe, and decide the next hold. */
  private probing = false;
  /** What the target had accepted when the probe met its first refusal, which only paused it (see `refused`). */
  private probeMeasured: number | undefined;
  /** Since the last probe ended, a lone refusal came at or below the last limit: a fault, or another client's share. */
  private refusedBelowLimit = false;
  private refusedAt = -Infinity;
  private raisedAt: number;
  private heldBack = false;
  private throttledAnswers = 0;
  private acceptedAnswers = 0;
  private throttledSince: number | undefined;

  constructor(
    private readonly clock: Clock,
    /** Requests a second never to exceed; undefined: none until the target throttles. */
    private readonly ceilingRps?: number,
  ) {
    this.rps = ceilingRps;
    this.raisedAt = clock.now();
  }

  /**
   * Resolves, in the order asked (a `retry`, whose deadline already runs, first, then a later page of a list read
   * under way), with how long the request waited, or false when a pause outlasts the time it had left (the test's
   * timeout bounds its wait behind other requests). Every acquire is matched by one `finished`. A `token` request goes
   * first and past the cap in flight: requests holding a place may wait for it.
   */
  acquire(deadline = Infinity, turn: Turn = 'new', token = false): Promise<number | false> {
    return new Promise((go) => {
      const request = { placed: this.clock.now(), deadline, beyondCap: token, turn: token ? 'retry' : turn, go };
      if (request.turn === 'retry') this.waiting.unshift(request);
      else if (request.turn === 'new') this.waiting.push(request);
      else {
        // Behind every retry: a page may wait, a retry's deadline runs (at 1 a second pages cut in until it passed).
        const at = this.waiting.findIndex((each) => each.turn === 'new');
        this.waiting.splice(at === -1 ? this.waiting.length : at, 0, request);
      }
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
      this.settleOpening(now);
      const at = Math.max(now, this.pausedUntil, this.nextSlotAt);
      if (at > now) {
        this.heldBack ||= at > this.pausedUntil;
        await this.clock.sleep(at - now);
      } else if (this.inFlight >= this.inFlightCap() && !this.waiting[0]!.beyondCap) {
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

  private inFlightCap(): number {
    const opening = this.rps === undefined && this.acceptedAnswers < PACING.openingAnswers;
    return opening ? 1 : PACING.maxInFlight;
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
    this.settleOpening(this.clock.now());
    const throttledForMs = this.throttledSince === undefined ? undefined : this.clock.now() - this.throttledSince;
    return { rps: this.rps, ceilingRps: this.ceilingRps, throttledAnswers: this.throttledAnswers, throttledForMs };
  }

  private observe(answer: PacedAnswer): void {
    const now = this.clock.now();
    this.lastAnswers = [...this.lastAnswers.filter((entry) => entry.sentAt > now - PACING.acceptedMs), answer];
    // A refusal of a request sent before the last decrease tells of the rate before it: it adds no penalty.
    this.penalty = this.penalty * PACING.penaltyDecay + (answer.throttled && answer.sentAt > this.loweredAt ? 1 : 0);
    if (!answer.throttled) {
      this.acceptedAnswers += 1;
      this.raise(now);
    } else this.refused(answer, now);
  }

  /** Additive increase over time, after a while at the last limit past it. */
  private raise(now: number): void {
    const elapsedMs = now - Math.max(this.raisedAt, this.refusedAt + PACING.quietMs);
    this.raisedAt = now;
    // A rate that held nothing back is not what limits the run: raising it would only be a guess.
    const heldBack = this.heldBack;
    this.heldBack = false;
    if (this.rps === undefined || !heldBack || now - this.refusedAt < PACING.quietMs) return;
    if (this.rps >= this.lastLimit && now - (this.heldSince ??= now) < this.holdMs) return;
    this.probing ||= this.rps >= this.lastLimit;
    const raised = this.rps + (PACING.increaseRps * elapsedMs) / 1000;
    const upTo = this.rps < this.lastLimit ? this.lastLimit : Infinity;
    this.rps = Math.min(this.ceilingRps ?? Infinity, upTo, raised);
  }

  /** One refusal now and then costs only its own Retry-After (the retry waits for it); the limit costs the rate. */
  private refused(answer: PacedAnswer, now: number): void {
    this.throttledAnswers += 1;
    this.throttledSince ??= now;
    this.refusedAt = now;
    // The opening: every request in flight went unpaced, so the target's first refusal pauses them all, once, and the
    // rate is set from their answers when the pause has passed (settleOpening).
    if (this.rps === undefined && this.openedAt === undefined) {
      this.openedAt = now;
      this.openingUntil = now + (answer.retryAfterMs ?? PACING.defaultPauseMs);
      this.pausedUntil = Math.max(this.pausedUntil, this.openingUntil);
      return;
    }
    if (this.openingUntil !== undefined) return;
    // Past the last limit (a probe) one or two refusals say the limit is there; at or below it, only a burst does: a
    // random fault while the rate holds at the limit costs its Retry-After and a twentieth of the rate, not a decrease.
    const atLimit = this.rps !== undefined && this.rps > this.lastLimit;
    const burst = this.penalty >= PACING.penaltyLimit;
    // Once per burst: the answers to requests sent before the decrease tell of the rate before it.
    if (answer.sentAt <= this.loweredAt) return;
    if (!atLimit && !burst) {
      this.refusedBelowLimit = true;
      if (this.lastLimit !== Infinity) this.lastLimit = Math.max(PACING.minRps, this.lastLimit * PACING.erosion);
      else if (this.rps !== undefined) [this.lastLimit, this.limitGuessed] = [this.rps, true];
      if (this.rps !== undefined) this.rps = Math.min(this.rps, this.lastLimit);
      return;
    }
    // At the limit every request of the client would be refused until the Retry-After has passed.
    this.pausedUntil = Math.max(this.pausedUntil, now + (answer.retryAfterMs ?? PACING.defaultPauseMs));
    const accepted = acceptedPerSecond(this.lastAnswers, now - this.lastAnswers[0]!.sentAt);
    const measured = Math.max(PACING.minRps, Math.min(this.rps ?? Infinity, accepted), this.probeMeasured ?? 0);
    if (this.probing && !burst && this.probeMeasured === undefined && this.refusedBelowLimit) {
      // Where refusals came below the limit (random faults, or other clients sharing it), a probe's first refusal
      // pauses it and its second ends it: a shard left alone, rising from a squeezed share, met a fault every few
      // seconds, each taking it back and doubling its hold. Elsewhere one ends it: at 1 a second each more refusal is a
      // thirtieth of the requests. The answers after the pause say less of the rate than those before it.
      this.probeMeasured = measured;
      return;
    }
    if (!burst) {
      // A lone refusal of a probe says the limit is where it was, or where the target accepted: back to it, not below.
      // Past a limit that faults lowered, the rate had not risen: the hold goes on (restarted by a fault every 15 s, a
      // shard left alone at 1.5 a second never probed).
      if (this.probing) {
        const room = measured > this.lastLimit + PACING.increaseRps;
        this.holdMs = room ? 0 : Math.min(PACING.holdMs, Math.max(PACING.firstHoldMs, 2 * this.holdMs));
        this.heldSince = undefined;
      }
      this.lastLimit = Math.max(this.lastLimit, measured);
      this.rps = this.lastLimit;
    } else {
      // The first rate is a guess from the first burst's few answers: no limit to hold at.
      if (this.rps === undefined) this.lastLimit = Infinity;
      else if (this.lastLimit === Infinity || this.limitGuessed) this.lastLimit = measured;
      else this.lastLimit = Math.max(measured, PACING.limitFloor * this.lastLimit);
      this.rps = Math.max(PACING.minRps, measured * PACING.decrease);
      this.heldSince = undefined;
    }
    if (this.probing) this.refusedBelowLimit = false;
    this.probing = false;
    this.probeMeasured = undefined;
    this.limitGuessed = false;
    this.penalty = 0;
    this.loweredAt = now;
  }

  /**
   * Once the opening's pause has passed, the target has refused one request sent unpaced: it limits the rate, which
   * starts below what it accepted (the last limit stays unknown). A fault taken for the limit costs the rise back from
   * there, and waiting for a second refusal cost every shard one more. A Retry-After says a request sent after it is
   * admitted, so the target accepts one a Retry-After at least, however few of this client's it took while other
   * clients shared the limit.
   */
  private settleOpening(now: number): void {
    if (this.openingUntil === undefined || now < this.openingUntil) return;
    const retryAfterMs = this.openingUntil - this.openedAt!;
    this.openingUntil = undefined;
    const accepted = acceptedPerSecond(this.lastAnswers, this.openedAt! - this.lastAnswers[0]!.sentAt);
    this.rps = Math.max(PACING.minRps, Math.max(accepted, 1000 / retryAfterMs) * PACING.decrease);
    this.penalty = 0;
    this.loweredAt = now;
  }
}

/** Answers the target accepted among `answers`, a second, over `spanMs` (a second at least). */
function acceptedPerSecond(answers: PacedAnswer[], spanMs: number): number {
  return (answers.filter((answer) => !answer.throttled).length * 1000) / Math.max(spanMs, 1_000);
}

const paces = new Map<string, Pace>();

/** The pace of `clientId` at `origin` for every request of this process; `ceilingRps` applies when it is made. */
export function sharedPace(origin: string, clientId: string, clock: Clock, ceilingRps?: number): Pace {
  const key = `${origin} ${clientId}`;
  if (!paces.has(key)) paces.set(key, new Pace(clock, ceilingRps));
  return paces.get(key)!;
}
