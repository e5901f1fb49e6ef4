// Owns the pace of one client: when each request of that client may be sent. A shared sandbox
// limits how fast one client may call it and says so with 429 (or 503) and Retry-After. Requests
// go in the order they asked, at most `maxInFlight` at once; a throttled answer pauses every one of
// them until its Retry-After has passed; a burst of throttled answers lowers the rate (AIMD, as TCP
// does), and a quiet spell while the rate held requests back raises it again slowly. The retry
// decision (support/transport/retry.ts) says whether and until when a request is repeated.
import type { Clock } from './http.js';

/** How the pace reacts, as data. */
export const PACING = {
  /** Requests of one client in flight at once: a run whose every test starts together opens with no burst. */
  maxInFlight: 4,
  /** This many throttled answers within `burstWindowMs`, and this share of its answers, say the rate is too high... */
  burst: 2,
  burstShare: 0.25,
  burstWindowMs: 1_000,
  /** ...and lower it to this share of what it was, or of what the target accepted in that window. */
  decrease: 0.7,
  /** The rate never falls below this (requests a second). */
  minRps: 0.2,
  /** Without a throttled answer for this long, while the rate held requests back, it rises by `increase`. */
  quietMs: 5_000,
  increase: 1.1,
  /** A throttled answer without Retry-After pauses every request this long. */
  defaultPauseMs: 1_000,
};

/** One answer, as the pace learns from it. */
export interface PacedAnswer {
  /** When the request was sent (the clock's ms). */
  sentAt: number;
  /** The target throttled it (support/transport/retry.ts `isThrottled`). */
  throttled: boolean;
  retryAfterMs?: number;
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

/** A request waiting for its turn. */
interface Waiting {
  placed: number;
  deadline: number;
  go: (heldMs: number | false) => void;
}

export class Pace {
  private rps: number | undefined;
  private inFlight = 0;
  private pausedUntil = 0;
  private nextSlotAt = 0;
  /** The requests waiting for their turn, in the order they asked. */
  private readonly waiting: Waiting[] = [];
  private releasing = false;
  private slotFreed: (() => void) | undefined;
  private recent: { sentAt: number; throttled: boolean }[] = [];
  /** When a burst last lowered the rate; undefined before one did. */
  private loweredAt: number | undefined;
  /** Since when no throttled answer lowered the rate, and none was raised. */
  private quietSince: number;
  private heldBack = false;
  private throttledAnswers = 0;
  private throttledSince: number | undefined;

  constructor(
    private readonly clock: Clock,
    /** Requests a second never to exceed, from the start; undefined: none until the target throttles. */
    private readonly ceilingRps?: number,
  ) {
    this.rps = ceilingRps;
    this.quietSince = clock.now();
  }

  /**
   * Resolves when the next request of this client may be sent, with how long it waited for its
   * turn; every such acquire is matched by one `finished`. Requests go in the order they asked.
   * Resolves false when a pause (a Retry-After) is longer than all the time it had left when it
   * asked (until `deadline`, the clock's ms). Waiting behind other requests is not held against the
   * deadline: the test's own timeout bounds it.
   */
  acquire(deadline = Infinity): Promise<number | false> {
    return new Promise((go) => {
      this.waiting.push({ placed: this.clock.now(), deadline, go });
      void this.release();
    });
  }

  /** Lets waiting requests go, one at a time, as the pause, the rate and the cap in flight allow. */
  private async release(): Promise<void> {
    if (this.releasing) return;
    this.releasing = true;
    try {
      while (this.waiting.length > 0) {
        const now = this.clock.now();
        // A pause longer than all the time a request had left when it asked: it cannot go in time.
        for (const late of this.waiting.filter(
          (request) => this.pausedUntil - now > request.deadline - request.placed,
        )) {
          this.waiting.splice(this.waiting.indexOf(late), 1);
          late.go(false);
        }
        const at = Math.max(now, this.pausedUntil, this.nextSlotAt);
        if (this.waiting.length === 0) break;
        if (at > now) {
          this.heldBack = this.heldBack || at > this.pausedUntil;
          await this.clock.sleep(at - now);
        } else if (this.inFlight >= PACING.maxInFlight) {
          await new Promise<void>((resolve) => (this.slotFreed = resolve));
        } else {
          const next = this.waiting.shift()!;
          this.inFlight += 1;
          this.nextSlotAt = now + (this.rps === undefined ? 0 : 1000 / this.rps);
          next.go(now - next.placed);
        }
      }
    } finally {
      this.releasing = false;
    }
  }

  /** The request let go by `acquire` ended, with this answer, or without one (nothing answered). */
  finished(answer?: PacedAnswer): void {
    this.inFlight -= 1;
    if (answer) this.observe(answer);
    this.slotFreed?.();
    this.slotFreed = undefined;
  }

  /** Until when every request of this client waits (a Retry-After); in the past when none does. */
  pausedUntilMs(): number {
    return this.pausedUntil;
  }

  state(): PaceState {
    const throttledForMs = this.throttledSince === undefined ? undefined : this.clock.now() - this.throttledSince;
    return { rps: this.rps, ceilingRps: this.ceilingRps, throttledAnswers: this.throttledAnswers, throttledForMs };
  }

  private observe(answer: PacedAnswer): void {
    const now = this.clock.now();
    this.recent = [...this.recent.filter((entry) => entry.sentAt > answer.sentAt - PACING.burstWindowMs), answer];
    if (!answer.throttled) return this.quiet(now);
    this.throttledAnswers += 1;
    this.throttledSince ??= now;
    this.pausedUntil = Math.max(this.pausedUntil, now + (answer.retryAfterMs ?? PACING.defaultPauseMs));
    // A rate the target refused even once is not raised for a quiet spell after it: held just above
    // the limit, the pauses alone would keep it from a burst while it rose on.
    this.quietSince = now;
    // One refusal now and then (a transient fault) is honoured by its Retry-After alone; the many
    // refusals of one burst lower the rate once, and only for a request sent at the present rate.
    const refused = this.recent.filter((entry) => entry.throttled).length;
    const burst = refused >= PACING.burst && refused >= PACING.burstShare * this.recent.length;
    if (!burst || answer.sentAt <= (this.loweredAt ?? -Infinity)) return;
    const accepted = ((this.recent.length - refused) * 1000) / PACING.burstWindowMs;
    this.rps = Math.max(
      PACING.minRps,
      Math.min(this.rps ?? Infinity, Math.max(accepted, PACING.minRps)) * PACING.decrease,
    );
    this.loweredAt = now;
    this.heldBack = false;
  }

  private quiet(now: number): void {
    if (this.rps === undefined || now - this.quietSince < PACING.quietMs) return;
    // A rate that held nothing back is not what limits the run: raising it would only be a guess.
    if (this.heldBack) this.rps = Math.min(this.ceilingRps ?? Infinity, this.rps * PACING.increase);
    this.heldBack = false;
    this.quietSince = now;
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
