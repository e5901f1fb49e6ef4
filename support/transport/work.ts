// Which work a request is sent for, and whether it has ended: a test that failed or was cancelled would otherwise
// go on sending (a Promise.all's other branch polls on), spending the rate the running tests and cleanups need.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Why the work of the caller's async chain has ended; undefined while it goes on. */
const endedFor = new AsyncLocalStorage<() => string | undefined>();

/** Runs a test's body as work that ends when it settles or `cancelled` aborts (timeout, --bail); cleanup is outside. */
export async function testWork<T>(cancelled: AbortSignal, body: () => Promise<T>): Promise<T> {
  let settled: string | undefined;
  const ended = (): string | undefined => {
    if (settled !== undefined || !cancelled.aborted) return settled;
    const reason: unknown = cancelled.reason;
    return `the test it was for had been cancelled (${reason instanceof Error ? reason.message : String(reason)})`;
  };
  try {
    return await endedFor.run(ended, body);
  } finally {
    settled = ended() ?? 'the test it was for had ended';
  }
}

/** Runs `body` as the run's own work, which no test's end stops (a token every test waits for). */
export function workOfTheRun<T>(body: () => T): T {
  return endedFor.exit(body);
}

/** A request asked for by work that had already ended: nobody waits for its answer. */
export class NotSentError extends Error {
  override readonly name = 'NotSentError';
  constructor(request: string, reason: string) {
    super(`${request} not sent: ${reason}`);
  }
}

/** Throws NotSentError for `request` when the work the caller does has ended; outside any test it never has. */
export function ensureWorkGoesOn(request: string): void {
  const ended = endedFor.getStore()?.();
  if (ended !== undefined) throw new NotSentError(request, ended);
}
