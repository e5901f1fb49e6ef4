// Owns a contract test's time: it is charged for its own work, from its first request on, but not for its turn
// behind the client's other requests at the pace, nor for the later pages of a list (how long the list has grown is no
// work of the test's: the run's bound holds them); the time the target made its requests wait by refusing them counts.
// Out of its own time it fails "Target throttled" when its own requests stayed refused, "Out of time" when not; the
// run stops with one message past a bound derived from its requests and the rate it met.
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { observeExchanges } from '../transport/exchanges.js';
import { throttledAnswer } from '../transport/retry.js';
import { seconds, watchRequestWaits } from '../transport/http.js';

/** What requests spent, summed over them (concurrent waits both count); `throttled`: 429, or 503 with Retry-After. */
const nothingSpent = () => ({ requests: 0, pacedMs: 0, answeringMs: 0, throttled: 0 });
type Spending = ReturnType<typeof nothingSpent>;
/** Every request of this worker so far. */
const spentInAll = nothingSpent();
const spending = new AsyncLocalStorage<Spending>();

// A timer a second early once fired after vitest's own on a loaded machine, and the test ended in no category.
const BEFORE_TIMEOUT_MS = 2_500;

/** The setting that gives every contract test more time of its own (vitest.config.ts reads it). */
export const TEST_TIMEOUT_VARIABLE = 'CONTRACT_TEST_TIMEOUT_MS';

/** Time during which one or more waits of a kind went on, each counted once however many overlap. */
class WaitClock {
  private open = 0;
  private since = 0;
  private closedMs = 0;
  /** `also`: clocks each wait of this one runs on too. */
  constructor(private readonly also: WaitClock[] = []) {}

  start(): () => void {
    for (const clock of this.also) clock.start();
    if (this.open++ === 0) this.since = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      for (const clock of this.also) clock.endOne();
      this.endOne();
    };
  }

  private endOne(): void {
    if (--this.open === 0) this.closedMs += Date.now() - this.since;
  }

  get running(): boolean {
    return this.open > 0;
  }

  get ms(): number {
    return this.closedMs + (this.open > 0 ? Date.now() - this.since : 0);
  }
}

/** The worker's time with a test's request queued for the pace: the rate, not the tests, set the run's length then. */
const queuedInRun = new WaitClock();
const run = { firstRequestAt: undefined as number | undefined, requestsWhileQueued: 0, told: false };

/** Requests a second the target let this worker send while requests queued for them; undefined before any did. */
function rateMet(): number | undefined {
  const queuedMs = queuedInRun.ms;
  return queuedMs < 1_000 || run.requestsWhileQueued === 0 ? undefined : (run.requestsWhileQueued * 1000) / queuedMs;
}

/**
 * How long the run may last, from its first request: every test's own time, and twice what its requests need at the
 * rate it met. Past it, requests no longer come as fast as that rate allows: something other than the rate holds it.
 */
function runBoundMs(ownTimeMs: number): number {
  const rate = rateMet();
  return ownTimeMs + (rate === undefined ? 0 : (2 * spentInAll.requests * 1000) / rate);
}

/** Says once, when the rate first held a test back for a while, why the run takes longer than its waits. */
function tellOfTheRate(): void {
  const rate = rateMet();
  if (run.told || rate === undefined || queuedInRun.ms < 10_000) return;
  run.told = true;
  console.warn(
    `The target's rate makes this run take longer: ${spentInAll.requests} request(s) so far, sent at about ` +
      `${rate.toFixed(1)} a second while tests queued for them. Each test is charged only for its own requests and ` +
      'waits, not for its turn behind the others; lists read to their end cost a request a page.',
  );
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
  constructor(elapsedMs: number, boundMs: number) {
    const rate = rateMet();
    super(
      `Run out of time: ${seconds(elapsedMs)} since its first request, past its bound of ${seconds(boundMs)} ` +
        `(each test's own time, and twice what its ${spentInAll.requests} request(s) need at the ` +
        `${rate === undefined ? 'unlimited' : `${rate.toFixed(1)} a second`} rate it met). No rule is judged by it; ` +
        'a list read to its end costs a request a page: CONTRACT_PAGE_SIZE, where the sandbox takes it, reads fewer.',
    );
  }
}

/** Counts every exchange, for the run and for the test that sent it (the worker's observers subscribe it once). */
export function countTestSpending(): () => void {
  return observeExchanges((exchange) => {
    const throttled = throttledAnswer(exchange.status, exchange.responseHeaders, Date.now());
    if (queuedInRun.running) run.requestsWhileQueued += 1;
    run.firstRequestAt ??= Date.now() - exchange.durationMs;
    tellOfTheRate();
    for (const account of [spentInAll, spending.getStore()]) {
      if (!account) continue;
      account.requests += 1;
      account.pacedMs += exchange.pacedMs;
      account.answeringMs += exchange.durationMs;
      if (throttled) account.throttled += 1;
    }
  });
}

/**
 * Runs a test's body, counting its requests, with `ownTimeMs` of its own: from its first request, less the time its
 * requests only queued for the pace and the time lists' later pages took. Fails it when that runs out, when
 * the run passes its bound, and just before `backstopMs` (vitest's own timeout, which would end it in no category).
 */
export async function spendTestTime<T>(ownTimeMs: number, backstopMs: number, body: () => Promise<T>): Promise<T> {
  const own = nothingSpent();
  const startedAt = Date.now();
  let firstAskedAt: number | undefined;
  // Not the test's own: its turn behind other requests, and the answers of lists' later pages.
  const notOwn = new WaitClock();
  const queued = new WaitClock([queuedInRun, notOwn]);
  const pages = new WaitClock([notOwn]);
  const refused = new WaitClock();
  const waits = {
    queued: () => {
      firstAskedAt ??= Date.now();
      return queued.start();
    },
    refused: () => refused.start(),
    laterPages: () => pages.start(),
  };
  const ownMs = () => (firstAskedAt === undefined ? 0 : Date.now() - firstAskedAt - notOwn.ms);
  const out = Promise.withResolvers<never>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    const runElapsedMs = now - (run.firstRequestAt ?? now);
    const boundMs = runBoundMs(ownTimeMs);
    // vitest's own timeout is a backstop that fails in no category: this one fires first.
    const backstopLeftMs = startedAt + backstopMs - BEFORE_TIMEOUT_MS - now;
    if (runElapsedMs >= boundMs || backstopLeftMs <= 0)
      return out.reject(new RunOutOfTimeError(runElapsedMs, Math.min(boundMs, runElapsedMs + backstopLeftMs)));
    const leftMs = ownTimeMs - ownMs();
    const spent = {
      own: { ...own },
      refusedMs: refused.ms,
      queuedMs: queued.ms,
      pagesMs: pages.ms,
      stillRefused: refused.running,
    };
    if (leftMs <= 0) return out.reject(new TestOutpacedError(ownTimeMs, spent));
    // Its own time passes no faster than the clock: nothing runs out before the nearest of the three.
    timer = setTimeout(check, Math.max(100, Math.min(leftMs, boundMs - runElapsedMs, backstopLeftMs))).unref();
  };
  check();
  const settled = () => {
    clearTimeout(timer);
    // npm run bench reports the longest test's own time.
    const log = process.env.CONTRACT_WAIT_LOG;
    if (log) appendFileSync(log, `${JSON.stringify({ ownMs: ownMs() })}\n`);
  };
  try {
    return await Promise.race([spending.run(own, () => watchRequestWaits(waits, body)), out.promise]);
  } finally {
    settled();
  }
}
