// Owns what a contract test's time was spent on when it runs out: vitest fails it as "Test timed out", in no category;
// under a target's rate limit it fails just before that as "Target throttled": how long requests waited, what to do.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observeExchanges } from '../transport/exchanges.js';
import { throttledAnswer } from '../transport/retry.js';
import { seconds } from '../transport/http.js';

/** What requests spent, summed over them (concurrent waits both count); `throttled`: 429, or 503 with Retry-After. */
const nothingSpent = () => ({ requests: 0, pacedMs: 0, answeringMs: 0, throttled: 0 });
type Spending = ReturnType<typeof nothingSpent>;
/** Every request of this worker so far; a test's window is the difference between two readings. */
const spentInAll = nothingSpent();
const spending = new AsyncLocalStorage<Spending>();

// On a loaded machine a timer a second early once fired after vitest's own, and the test ended in no category.
const BEFORE_TIMEOUT_MS = 2_500;

/** The setting that gives every contract test longer (vitest.config.ts reads it). */
export const TEST_TIMEOUT_VARIABLE = 'CONTRACT_TEST_TIMEOUT_MS';

export class TestOutpacedError extends Error {
  override readonly name = 'TestOutpacedError';
  constructor(
    timeoutMs: number,
    readonly spent: { own: Spending; whileItRan: Spending },
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

/** Counts every exchange, for the run and for the test that sent it (the worker's observers subscribe it once). */
export function countTestSpending(): () => void {
  return observeExchanges((exchange) => {
    const throttled = throttledAnswer(exchange.status, exchange.responseHeaders, Date.now());
    for (const account of [spentInAll, spending.getStore()]) {
      if (!account) continue;
      account.requests += 1;
      account.pacedMs += exchange.pacedMs;
      account.answeringMs += exchange.durationMs;
      if (throttled) account.throttled += 1;
    }
  });
}

/** Runs a test's body, counting its requests; fails it outpaced just before vitest's timeout if the pace held them. */
export async function spendTestTime<T>(startedAt: number, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  const own = nothingSpent();
  // vitest takes a timeout of 0 for none.
  if (!(timeoutMs > 0)) return spending.run(own, body);
  const before = { ...spentInAll };
  const delay = Math.max(0, startedAt + timeoutMs - BEFORE_TIMEOUT_MS - Date.now());
  const outpaced = Promise.withResolvers<never>();
  const timer = setTimeout(() => {
    const whileItRan = { ...spentInAll };
    for (const key of Object.keys(before) as (keyof Spending)[]) whileItRan[key] -= before[key];
    if (own.pacedMs > 0 && whileItRan.pacedMs >= whileItRan.answeringMs)
      outpaced.reject(new TestOutpacedError(timeoutMs, { own: { ...own }, whileItRan }));
  }, delay).unref();
  try {
    return await Promise.race([spending.run(own, body), outpaced.promise]);
  } finally {
    clearTimeout(timer);
  }
}
