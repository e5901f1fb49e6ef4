// Owns what a contract test's time was spent on, when it runs out. vitest fails a test that outlasts
// its timeout as "Test timed out", which names no cause and no category. Under a target's rate limit
// a test can run out of time without any request reaching its own deadline: a list read to its end
// at ten records a page is a request a page, and each waits its turn at the client's pace. Then the
// target's rate spent the test's time, not a broken promise: just before vitest's timeout the test
// fails as "Target throttled", saying how long requests waited for the pace and what to change.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observeExchanges } from '../transport/exchanges.js';
import { throttledAnswer } from '../transport/retry.js';
import { seconds } from '../transport/http.js';

/**
 * What requests spent: how many, how long they waited for their client's pace and took to be answered, how many were
 * throttled.
 */
export interface Spending {
  requests: number;
  /** Summed over the requests: concurrent waits both count. */
  pacedMs: number;
  answeringMs: number;
  /** Answers that were throttled (429, or 503 with Retry-After). */
  throttled: number;
}

/** What a test that ran out of time spent: its own requests, and every request of the run while it ran. */
export interface TestSpending {
  own: Spending;
  whileItRan: Spending;
}

const nothingSpent = (): Spending => ({ requests: 0, pacedMs: 0, answeringMs: 0, throttled: 0 });
/** Every request of this worker so far; a test's window is the difference between two readings. */
const spentInAll = nothingSpent();
const spending = new AsyncLocalStorage<Spending>();

/**
 * The test fails this long before vitest's timeout would, so that its own failure is the one reported:
 * on a loaded machine (npm test's self-checks side by side) a timer a second early once fired after
 * vitest's own, and the test ended "Test timed out" in no category.
 */
const BEFORE_TIMEOUT_MS = 2_500;
/**
 * The pace spent a test's time when, while it ran, the requests of the run waited for their pace at
 * least as long as they took to be answered, and its own requests waited too.
 */
const PACED_TO_ANSWERING = 1;

/** The setting that gives every contract test longer (vitest.config.ts reads it). */
export const TEST_TIMEOUT_VARIABLE = 'CONTRACT_TEST_TIMEOUT_MS';

/**
 * The running test's time ran out while the target's rate limit held the run's requests back: the
 * target protecting itself from the client's rate, filed with "Target throttled".
 */
export class TestOutpacedError extends Error {
  override readonly name = 'TestOutpacedError';
  constructor(
    readonly timeoutMs: number,
    readonly spent: TestSpending,
  ) {
    const { own, whileItRan } = spent;
    super(
      `Target throttled: the test's ${seconds(timeoutMs)} ran out while the target's rate limit held the run's ` +
        'requests back: ' +
        `while it ran, ${whileItRan.requests} request(s) waited ${seconds(whileItRan.pacedMs)} in all for their ` +
        `client's pace and took ${seconds(whileItRan.answeringMs)} to be answered, ${whileItRan.throttled} ` +
        'answer(s) throttled (429, or 503 with Retry-After); ' +
        `its own ${own.requests} request(s) waited ${seconds(own.pacedMs)}. No rule is judged by it. ` +
        `Give each test longer (${TEST_TIMEOUT_VARIABLE}, now ${timeoutMs}), raise CONTRACT_MAX_RPS if it is set ` +
        'below what the sandbox allows, or run when the sandbox is less busy; ' +
        `lists read to their end cost a request a page and grow with the sandbox (README: Known limits).`,
    );
  }
}

function add(to: Spending, pacedMs: number, answeringMs: number, throttled: boolean): void {
  to.requests += 1;
  to.pacedMs += pacedMs;
  to.answeringMs += answeringMs;
  if (throttled) to.throttled += 1;
}

const since = (now: Spending, then: Spending): Spending => ({
  requests: now.requests - then.requests,
  pacedMs: now.pacedMs - then.pacedMs,
  answeringMs: now.answeringMs - then.answeringMs,
  throttled: now.throttled - then.throttled,
});

/** Counts every exchange, for the run and for the test that sent it (the worker's observers subscribe it once). */
export function countTestSpending(): () => void {
  return observeExchanges((exchange) => {
    const throttled = throttledAnswer(exchange.status, exchange.responseHeaders, Date.now());
    add(spentInAll, exchange.pacedMs, exchange.durationMs, throttled);
    const account = spending.getStore();
    if (account) add(account, exchange.pacedMs, exchange.durationMs, throttled);
  });
}

/**
 * Runs a test's body, counting what requests spend while it runs. If vitest's timeout (`timeoutMs`
 * from `startedAt`, epoch ms) is about to end it while the pace spent its time (PACED_TO_ANSWERING),
 * it fails now as outpaced; otherwise vitest's timeout is left to end it as before.
 */
export async function spendTestTime<T>(startedAt: number, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  const own = nothingSpent();
  // vitest takes a timeout of 0 for none.
  if (!(timeoutMs > 0)) return spending.run(own, body);
  const before = { ...spentInAll };
  let timer: NodeJS.Timeout | undefined;
  const outpaced = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const whileItRan = since(spentInAll, before);
        if (own.pacedMs > 0 && whileItRan.pacedMs >= PACED_TO_ANSWERING * whileItRan.answeringMs)
          reject(new TestOutpacedError(timeoutMs, { own: { ...own }, whileItRan }));
      },
      Math.max(0, startedAt + timeoutMs - BEFORE_TIMEOUT_MS - Date.now()),
    );
    timer.unref();
  });
  try {
    return await Promise.race([spending.run(own, body), outpaced]);
  } finally {
    clearTimeout(timer);
  }
}
