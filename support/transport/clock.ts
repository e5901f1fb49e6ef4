// Owns the suite's time: what the HTTP client, the pace, token renewal, waits and a test's own time read and sleep on,
// injectable so that a unit test runs a schedule of seconds in milliseconds; and the simulated clock a self-check's run
// shares with an in-process simulator, which jumps to the earliest pending sleep once nothing else can run: simulated
// minutes pass in milliseconds, and a loaded machine only makes a run take longer, never changes what it saw of time.
import type { SimulatorClock } from '../../simulator/clock.js';

export interface Clock {
  now(): number;
  /** Resolves once `ms` have passed on this clock, or at once when `signal` aborts (the sleep is withdrawn). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A request's deadline on this clock, when requests are answered on it too (`timeoutOn`). */
  timeout?(ms: number): { signal: AbortSignal; clear: () => void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/**
 * A signal that aborts `ms` from now, and the function that withdraws it once no longer needed: the clock's own when it
 * has one (a simulated clock, on which the simulator holds requests), else AbortSignal.timeout, which is precise and
 * real, as a socket that hangs is (the unit tests' hand-moved clocks keep real deadlines so).
 */
export function timeoutOn(clock: Clock, ms: number): { signal: AbortSignal; clear: () => void } {
  return clock.timeout?.(ms) ?? { signal: AbortSignal.timeout(ms), clear: () => {} };
}

interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

// Event-loop turns with nothing done on the clock and nothing holding it before time moves on. One turn lets every
// callback already queued run; the rest give what those started (a stream's next chunk, a second setImmediate) the
// chance to reach the clock or to start work that holds it.
const IDLE_TURNS = 5;

// The contract runner's holds (support/run/concurrent-files.js says why), shared by key: it is plain JavaScript that
// Node imports, apart from this module's copy under vitest.
const RUNNER_HOLDS = Symbol.for('contract-suite.simulated-clock.holds');
const runnerHolds = (): number =>
  ((globalThis as Record<symbol, unknown>)[RUNNER_HOLDS] as { count: number } | undefined)?.count ?? 0;

/** Where simulated time starts: a real date, so that the dates the parties print and read still parse. */
export const SIMULATED_EPOCH_MS = Date.UTC(2026, 0, 1);

export class SimulatedClock implements Clock {
  private nowMs: number;
  private readonly sleepers: Sleeper[] = [];
  private order = 0;
  private holding = 0;
  /** Changes on every sleep and every change of what holds the clock: a turn without one was idle. */
  private activity = 0;
  private checking = false;

  constructor(startMs = SIMULATED_EPOCH_MS) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  /** Resolves when the clock reaches `ms` from now; `signal` withdraws the sleep, so it no longer draws time on. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    this.activity += 1;
    return new Promise<void>((resolve) => {
      const sleeper: Sleeper = {
        at: this.nowMs + Math.max(0, ms),
        order: this.order++,
        wake: () => {
          signal?.removeEventListener('abort', withdraw);
          resolve();
        },
      };
      const withdraw = () => {
        const index = this.sleepers.indexOf(sleeper);
        if (index >= 0) this.sleepers.splice(index, 1);
        this.activity += 1;
        sleeper.wake();
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.sleepers.push(sleeper);
      this.check();
    });
  }

  /** A request's deadline: an abort `ms` from now on this clock, withdrawn by `clear` once the request settles. */
  timeout(ms: number): { signal: AbortSignal; clear: () => void } {
    const timeout = new AbortController();
    const cleared = new AbortController();
    void this.sleep(ms, cleared.signal).then(() => {
      if (!cleared.signal.aborted)
        timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    });
    return { signal: timeout.signal, clear: () => cleared.abort() };
  }

  /**
   * Work under way outside the clock (a request handed to the simulator, not yet answered): the clock stands still
   * until the returned function is called.
   */
  hold(): () => void {
    let held = true;
    this.changeHolding(1);
    return () => {
      if (!held) return;
      held = false;
      this.changeHolding(-1);
    };
  }

  /**
   * The clock as the simulator sees it. The simulator sleeps only while it answers a request (its latency), which holds
   * the clock: each such sleep lets time pass as if that request no longer held it.
   */
  forSimulator(): SimulatorClock {
    return {
      now: () => this.now(),
      sleep: (ms) => {
        this.changeHolding(-1);
        return this.sleep(ms).finally(() => this.changeHolding(1));
      },
    };
  }

  private changeHolding(by: number): void {
    this.holding += by;
    this.activity += 1;
    if (this.holding === 0) this.check();
  }

  /** Moves time on once the event loop has been idle for IDLE_TURNS turns, again while sleepers remain. */
  private check(): void {
    if (this.checking) return;
    this.checking = true;
    let idleTurns = 0;
    let seen = this.activity;
    const turn = () => {
      // Nothing to wake, or a request in flight, whose end checks again (changeHolding): no turns spent meanwhile.
      if (this.sleepers.length === 0 || this.holding > 0) {
        this.checking = false;
        return;
      }
      // Files still starting answer over vitest's main thread, in real time: look again a millisecond later.
      if (runnerHolds() > 0) {
        idleTurns = 0;
        setTimeout(turn, 1);
        return;
      }
      idleTurns = seen === this.activity ? idleTurns + 1 : 0;
      seen = this.activity;
      if (idleTurns >= IDLE_TURNS) {
        idleTurns = 0;
        this.advance();
        seen = this.activity;
      }
      setImmediate(turn);
    };
    setImmediate(turn);
  }

  /** Time moves to the earliest sleep; every sleep due then wakes, in the order it began. */
  private advance(): void {
    this.sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
    const next = this.sleepers[0]!;
    this.nowMs = Math.max(this.nowMs, next.at);
    const due = this.sleepers.filter((sleeper) => sleeper.at <= this.nowMs);
    this.sleepers.splice(0, due.length);
    this.activity += 1;
    for (const sleeper of due) sleeper.wake();
  }
}
