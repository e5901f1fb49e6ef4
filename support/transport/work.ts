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
  whenAborted(cancelled, () => ends.abort(`the test it was for had been cancelled (${cancelled.reason instanceof Error ? cancelled.reason.message : String(cancelled.reason)})`), settled.signal);
  try {
    return await workUntil(ends.signal, body);
  } finally {
    settled.abort();
    ends.abort('the test it was for had ended');
  }
}

/**
 * The tests the caller's work is for, each as the signal that ends its work: the test's own, or
 * every test still going on that joined the shared work it runs in; none outside any test.
 */
export function testsServed(): AbortSignal[] {
  const ends = sentFor.getStore();
  return ends ? served(ends) : [];
}

function served(ends: AbortSignal): AbortSignal[] {
  const shared = sharedWork.get(ends);
  return shared ? shared.joinersGoingOn().flatMap(served) : [ends];
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

/** Each shared work by the signal its requests are sent under (`testsServed`). */
const sharedWork = new WeakMap<AbortSignal, SharedWork<unknown>>();

/**
 * Work several tests share (one read of a list that their waits joined): it goes on while any of
 * them does, and ends when every one of them has ended. A joiner outside any test never ends.
 */
export class SharedWork<T> {
  private readonly ends = new AbortController();
  /** Aborted when the work is over: the joiners' ends are no longer listened to. */
  private readonly over = new AbortController();
  private readonly joined: { part: T; ends?: AbortSignal }[] = [];

  constructor() {
    sharedWork.set(this.ends.signal, this);
  }

  /** Adds the caller's part, for as long as the work the caller is doing goes on. */
  join(part: T): void {
    const ends = sentFor.getStore();
    this.joined.push({ part, ends });
    if (ends) whenAborted(ends, () => this.left(), this.over.signal);
  }

  /** False once every joiner has ended: the work sends nothing more, and must not be joined. */
  goesOn(): boolean {
    return !this.ends.signal.aborted;
  }

  /** The parts of the joiners still going on. */
  live(): T[] {
    return this.goingOn().map((each) => each.part);
  }

  /** The work of each joiner still going on, by the signal that ends it (joiners outside any test have none). */
  joinersGoingOn(): AbortSignal[] {
    return this.goingOn().flatMap((each) => (each.ends ? [each.ends] : []));
  }

  /** Runs `body` as this shared work, until it settles. */
  async run<R>(body: () => Promise<R>): Promise<R> {
    try {
      return await workUntil(this.ends.signal, body);
    } finally {
      this.over.abort();
    }
  }

  private goingOn(): { part: T; ends?: AbortSignal }[] {
    return this.joined.filter((each) => !each.ends?.aborted);
  }

  private left(): void {
    if (this.live().length === 0) this.ends.abort('every test that joined it had ended');
  }
}
