// Owns a contract test's time: it is charged for its own work, from its first request on, but not for its turn
// behind the client's other requests at the pace, nor for the later pages of a list (how long the list has grown is no
// work of the test's: the run's bound holds them); the time the target made its requests wait by refusing them counts.
// Out of its own time it fails "Target throttled" when its own requests stayed refused, "Out of time" when not; the
// run stops with one message past a bound derived from its requests and the rate it met.
import { appendFileSync } from 'node:fs';
import { observeExchanges, type HttpExchange } from '../transport/exchanges.js';
import { throttledAnswer } from '../transport/retry.js';
import { seconds, type Work } from '../transport/http.js';
import { messageOf } from '../transport/network-failures.js';
import { systemClock, type Clock } from '../transport/clock.js';

/** What requests spent, summed over them (concurrent waits both count); `throttled`: 429, or 503 with Retry-After. */
const nothingSpent = () => ({ requests: 0, pacedMs: 0, answeringMs: 0, throttled: 0 });
type Spending = ReturnType<typeof nothingSpent>;

function spend(account: Spending, exchange: HttpExchange, now: number): void {
  account.requests += 1;
  account.pacedMs += exchange.pacedMs;
  account.answeringMs += exchange.durationMs;
  if (throttledAnswer(exchange.status, exchange.responseHeaders, now)) account.throttled += 1;
}

// Far enough ahead of vitest's own timeout that this timer fires first on a loaded machine, whose timers run late.
const BEFORE_TIMEOUT_MS = 2_500;

/** The setting that gives every contract test more time of its own (vitest.config.ts reads it). */
export const TEST_TIMEOUT_VARIABLE = 'CONTRACT_TEST_TIMEOUT_MS';

/** Time during which one or more waits of a kind went on, each counted once however many overlap. */
class WaitClock {
  private open = 0;
  private since = 0;
  private closedMs = 0;
  /** `also`: clocks each wait of this one runs on too. */
  constructor(
    private readonly clock: Clock,
    private readonly also: WaitClock[] = [],
  ) {}

  start(): () => void {
    const alsoEnd = this.also.map((clock) => clock.start());
    if (this.open++ === 0) this.since = this.clock.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      for (const end of alsoEnd) end();
      if (--this.open === 0) this.closedMs += this.clock.now() - this.since;
    };
  }

  get running(): boolean {
    return this.open > 0;
  }

  get ms(): number {
    return this.closedMs + (this.open > 0 ? this.clock.now() - this.since : 0);
  }
}

/**
 * The run's account in this worker (a worker fixture makes one): every request, and the time with a test's request
 * queued for the pace or a list's later page asked for, when the rate or the lists, not the tests, set its length.
 */
export class RunTime {
  readonly spent = nothingSpent();
  /** Time with a request queued for the pace or a later page asked for. */
  readonly held: WaitClock;
  private firstRequestAt: number | undefined;
  private requestsWhileHeld = 0;
  private told = false;

  /** `clock`: the one the worker's clients run on, which its tests' own time is counted on too. */
  constructor(readonly clock: Clock = systemClock) {
    this.held = new WaitClock(clock);
  }

  /** Counts every finished exchange of the worker, and says once when the rate makes the run take longer. */
  countExchanges(): () => void {
    return observeExchanges((exchange) => {
      if (this.held.running) this.requestsWhileHeld += 1;
      this.firstRequestAt ??= this.clock.now() - exchange.durationMs;
      spend(this.spent, exchange, this.clock.now());
      this.tellOfTheRate();
    });
  }

  /**
   * Requests a second the target let this worker send while requests queued for them or lists' later pages were read
   * (as fast as their answers came); undefined before any did.
   */
  rateMet(): number | undefined {
    const heldMs = this.held.ms;
    return heldMs < 1_000 || this.requestsWhileHeld === 0 ? undefined : (this.requestsWhileHeld * 1000) / heldMs;
  }

  /** Since the run's first request. */
  elapsedMs(): number {
    return this.firstRequestAt === undefined ? 0 : this.clock.now() - this.firstRequestAt;
  }

  /**
   * How long the run may last, from its first request: every test's own time, and twice what its requests need at
   * the rate it met. Past it, requests no longer come as fast as that rate allows: something other than the rate holds
   * it.
   */
  boundMs(ownTimeMs: number): number {
    const rate = this.rateMet();
    // Too soon to tell a rate: the time held so far, twice.
    return ownTimeMs + 2 * (rate === undefined ? this.held.ms : (this.spent.requests * 1000) / rate);
  }

  private tellOfTheRate(): void {
    const rate = this.rateMet();
    // Waits on a list's scan hold tests as a queue does: the scan's pages are the run's requests.
    if (this.told || rate === undefined || this.held.ms < 10_000) return;
    this.told = true;
    console.warn(
      `The target's rate makes this run take longer: ${this.spent.requests} request(s) so far, sent at about ` +
        `${rate.toFixed(1)} a second while tests queued for them or waited for lists' pages. Each test is charged ` +
        'only for its own requests and waits, not for its turn behind the others; lists cost a request a page.',
    );
  }
}

/** A test's own time ran out: "Target throttled" when the target refused its own requests, "Out of time" when not. */
export class TestOutpacedError extends Error {
  override readonly name: string;
  constructor(
    ownTimeMs: number,
    readonly spent: { own: Spending; refusedMs: number; queuedMs: number; pagesMs: number; stillRefused: boolean },
  ) {
    const { own, refusedMs, queuedMs, pagesMs, stillRefused } = spent;
    const throttled = stillRefused;
    const what =
      `its ${own.requests} request(s) took ${seconds(own.answeringMs)} to be answered, ${own.throttled} refused ` +
      `(429, or 503 with Retry-After) and waited ${seconds(refusedMs)} for the target to take them again; ` +
      `its turn behind other requests (${seconds(queuedMs)}) and the later pages of lists (${seconds(pagesMs)}) ` +
      'were not counted. No rule is judged by it.';
    super(
      throttled
        ? `Target throttled: the test's own ${seconds(ownTimeMs)} ran out while the target refused its requests: ` +
            `${what} Raise CONTRACT_MAX_RPS if it is set below what the sandbox allows, or run when the sandbox is ` +
            'less busy.'
        : `Out of time: the test's own ${seconds(ownTimeMs)} ran out: ${what} ` +
            `Give each test longer (${TEST_TIMEOUT_VARIABLE}, now ${ownTimeMs}) if its waits are that slow.`,
    );
    this.name = throttled ? 'TestOutpacedError' : 'TestOutOfTimeError';
  }
}

/** The run went past its bound (or vitest's backstop): every test still running stops with this one message. */
export class RunOutOfTimeError extends Error {
  override readonly name = 'RunOutOfTimeError';
  constructor(elapsedMs: number, boundMs: number, run: RunTime) {
    const rate = run.rateMet();
    super(
      `Run out of time: ${seconds(elapsedMs)} since its first request, past its bound of ${seconds(boundMs)} ` +
        `(each test's own time, and twice what its ${run.spent.requests} request(s) need at the ` +
        `${rate === undefined ? 'unlimited' : `${rate.toFixed(1)} a second`} rate it met). No rule is judged by it; ` +
        'a list read to its end costs a request a page: CONTRACT_PAGE_SIZE, where the sandbox takes it, reads fewer.',
    );
  }
}

/**
 * One test's work (support/transport/http.ts `Work`): it ends when its body settles or vitest cancels it (its
 * `context.signal`), and it has `ownTimeMs` of its own: from its first request, less the time its requests only queued
 * for the pace and the time lists' later pages took. `run` fails its body when that runs out, when the run passes its
 * bound, and just before `backstopMs` (vitest's own timeout, which would end it in no category).
 */
export class TestWork implements Work {
  private settled: string | undefined;
  private readonly own = nothingSpent();
  private firstAskedAt: number | undefined;
  // Not the test's own: its turn behind other requests, and lists' later pages.
  private readonly notOwn: WaitClock;
  private readonly queuedClock: WaitClock;
  private readonly pages: WaitClock;
  private readonly refusedClock: WaitClock;
  private readonly clock: Clock;

  constructor(
    readonly name: string,
    private readonly cancelled: AbortSignal,
    private readonly runTime: RunTime,
    private readonly limits: { ownTimeMs: number; backstopMs: number },
  ) {
    this.clock = runTime.clock;
    this.notOwn = new WaitClock(this.clock);
    this.refusedClock = new WaitClock(this.clock);
    this.queuedClock = new WaitClock(this.clock, [runTime.held, this.notOwn]);
    this.pages = new WaitClock(this.clock, [runTime.held, this.notOwn]);
  }

  ended(): string | undefined {
    if (this.settled !== undefined || !this.cancelled.aborted) return this.settled;
    return `the test it was for had been cancelled (${messageOf(this.cancelled.reason)})`;
  }

  queued(): () => void {
    this.firstAskedAt ??= this.clock.now();
    return this.queuedClock.start();
  }

  refused(): () => void {
    return this.refusedClock.start();
  }

  laterPages(): () => void {
    return this.pages.start();
  }

  sent(exchange: HttpExchange): void {
    spend(this.own, exchange, this.clock.now());
  }

  private ownMs(): number {
    return this.firstAskedAt === undefined ? 0 : this.clock.now() - this.firstAskedAt - this.notOwn.ms;
  }

  /** Runs the test's body as this work; once it settles (or fails for time), the work has ended. */
  async run<T>(body: () => Promise<T>): Promise<T> {
    const { ownTimeMs, backstopMs } = this.limits;
    const startedAt = this.clock.now();
    const out = Promise.withResolvers<never>();
    const finished = new AbortController();
    const check = () => {
      if (finished.signal.aborted) return;
      const now = this.clock.now();
      const runElapsedMs = this.runTime.elapsedMs();
      const boundMs = this.runTime.boundMs(ownTimeMs);
      // vitest's own timeout is a backstop that fails in no category: this one fires first.
      const backstopLeftMs = startedAt + backstopMs - BEFORE_TIMEOUT_MS - now;
      // Its own time first: when both run out together (a run of one test), the test's own account says more.
      const leftMs = ownTimeMs - this.ownMs();
      if (leftMs <= 0) {
        const spent = {
          own: { ...this.own },
          refusedMs: this.refusedClock.ms,
          queuedMs: this.queuedClock.ms,
          pagesMs: this.pages.ms,
          stillRefused: this.refusedClock.running,
        };
        return out.reject(new TestOutpacedError(ownTimeMs, spent));
      }
      if (runElapsedMs >= boundMs || backstopLeftMs <= 0) {
        const bound = Math.min(boundMs, runElapsedMs + backstopLeftMs);
        return out.reject(new RunOutOfTimeError(runElapsedMs, bound, this.runTime));
      }
      // Its own time passes no faster than the clock: nothing runs out before the nearest of the three.
      const nextMs = Math.max(100, Math.min(leftMs, boundMs - runElapsedMs, backstopLeftMs));
      void this.clock.sleep(nextMs, finished.signal).then(check);
    };
    check();
    try {
      return await Promise.race([body(), out.promise]);
    } finally {
      finished.abort();
      this.settled = this.ended() ?? 'the test it was for had ended';
      // npm run bench reports the longest test's own time.
      const log = process.env.CONTRACT_WAIT_LOG;
      if (log) appendFileSync(log, `${JSON.stringify({ ownMs: this.ownMs() })}\n`);
    }
  }
}
