// Owns which work a request is sent for, and whether that work has ended. A test that failed, ran
// out of time or was cancelled would otherwise go on sending: the other branch of a Promise.all
// polls to its deadline, a test out of time under a rate limit reads list pages for nothing. Those
// requests spend the target's rate that the tests still running and every test's cleanup need
// (under CONTRACT_TESTS_AT_ONCE, the next tests). The HTTP client (support/transport/http.ts) sends
// no request for ended work; what is already sent is answered as usual.
import { AsyncLocalStorage } from 'node:async_hooks';

const sentFor = new AsyncLocalStorage<AbortSignal>();

/** Runs `body` as work that ends when `ends` aborts: from then on its requests are not sent. */
function workUntil<T>(ends: AbortSignal, body: () => T): T {
  return sentFor.run(ends, body);
}

/** Calls `then` once `signal` aborts, at once when it already has; listening ends with `until`. */
function whenAborted(signal: AbortSignal, then: () => void, until?: AbortSignal): void {
  if (signal.aborted) then();
  else signal.addEventListener('abort', then, { once: true, signal: until });
}

/**
 * Runs a test's body as work that ends when the body settles (a branch that failed leaves the others
 * polling) or when `cancelled` aborts (vitest's timeout, --bail, Ctrl+C). Whatever runs after it, its
 * cleanup among them, is outside it.
 */
export async function testWork<T>(cancelled: AbortSignal, body: () => Promise<T>): Promise<T> {
  const ends = new AbortController();
  const settled = new AbortController();
  whenAborted(
    cancelled,
    () =>
      ends.abort(
        'the test it was for had been cancelled ' +
          `(${cancelled.reason instanceof Error ? cancelled.reason.message : String(cancelled.reason)})`,
      ),
    settled.signal,
  );
  try {
    return await workUntil(ends.signal, body);
  } finally {
    settled.abort();
    ends.abort('the test it was for had ended');
  }
}

/** Runs `body` as the run's own work, which no test's end stops (a token every test waits for). */
export function workOfTheRun<T>(body: () => T): T {
  return sentFor.exit(body);
}

/** Why the work the caller is doing has ended; undefined while it goes on, or outside any test. */
export function workEnded(): string | undefined {
  const ends = sentFor.getStore();
  return ends?.aborted ? String(ends.reason) : undefined;
}

/** A request asked for by work that had already ended: nobody waits for its answer. */
export class NotSentError extends Error {
  override readonly name = 'NotSentError';
  constructor(request: string, reason: string) {
    super(`${request} not sent: ${reason}`);
  }
}
