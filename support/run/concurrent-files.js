// Owns how the contract worker runs its spec files: all at once, each file's tests still in order.
// Plain JavaScript because allure-vitest's runner, which wraps this one, imports it with Node's own
// import(), which does not read TypeScript.
//
// A contract spec spends its time waiting for the target (eventual consistency), not computing.
// Run as vitest runs files, one at a time per worker thread, the waits overlap only as far as there
// are workers, every worker pays its own start-up, and each worker paces its client alone
// (docs/DESIGN.md, "What each remaining mechanism buys"). Here one worker imports the support library
// once, collects its files one by one as vitest hands them over, and runs them all at once after
// the last, so the waits overlap however many files there are. vitest gives a single non-isolated
// worker every file (maxWorkers 1, isolate false in vitest.config.ts).
//
// vitest's worker calls the runner once per file, collecting it and then running it inside the
// runner's `trace('run.spec', …)` hook (part of vitest's runner interface). This runner holds each
// file's run there, and releases all of them together when the last of the worker's files has been
// collected: no file is collected while another runs (vitest would take its tests for tests declared
// inside a running test). Which files the worker is given it learns through vitest's public
// provide / inject: the sequencer of vitest.config.ts provides them as `concurrentSpecFiles`, after
// filters and shards. What vitest keeps per worker rather than per test (the global `expect` state,
// the task console output is attributed to) is shared by files running at once: the specs use
// neither (no expect.assertions, no snapshots; a wait names its test from its verb's work),
// and the Allure runtime finds each test through its own (allure-vitest's concurrency-aware runner
// wraps this one).
import { inject, TestRunner } from 'vitest';

// On a simulated clock (support/run/global-setup.ts `startSimulatedRun`) a run must replay from its seed. vitest
// starts a file by asking its main thread (the file's snapshot state), outside any clock, so files released together
// reach their first tests in an order the machine's load decides. Here every released file holds the simulated clock
// (its holds are shared by key with support/transport/clock.ts, which this plain JavaScript cannot import) until all
// have reached their first test, and those tests then begin in the order of their files' paths.
const CLOCK_HOLDS = Symbol.for('contract-suite.simulated-clock.holds');
/** @type {{ count: number }} */
const clockHolds = /** @type {any} */ (globalThis[CLOCK_HOLDS] ??= { count: 0 });
const simulated = inject('simulatedRun') !== undefined;

export default class ConcurrentFilesRunner extends TestRunner {
  /** @type {(() => unknown)[]} */
  #held = [];
  /**
   * On a simulated clock, the released files whose first test has not begun, and the first tests waiting for them.
   * @type {Set<string>}
   */
  #starting = new Set();
  /** @type {{ file: string, begin: () => void }[]} */
  #waiting = [];
  /**
   * The worker's files not yet collected. Should none be provided, every file runs when collected,
   * one after another: slower, never wrong.
   * @type {Set<string>}
   */
  #toCollect = new Set(inject('concurrentSpecFiles') ?? []);

  /** @param {ConstructorParameters<typeof TestRunner>} args */
  constructor(...args) {
    super(...args);
    const traced = this.trace;
    /** @type {typeof this.trace} */
    this.trace = (name, attributes, body) => {
      if (name !== 'run.spec') return traced(name, attributes, body);
      const file = String(/** @type {Record<string, unknown>} */ (attributes)['code.file.path']);
      this.#held.push(() => {
        if (simulated) {
          this.#starting.add(file);
          clockHolds.count += 1;
        }
        return traced(name, attributes, body);
      });
      return Promise.resolve();
    };
  }

  /** @param {string} file */
  #started(file) {
    if (!this.#starting.delete(file)) return;
    clockHolds.count -= 1;
    if (this.#starting.size > 0) return;
    const waiting = this.#waiting.splice(0).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    for (const { begin } of waiting) begin();
  }

  /**
   * @param {import('vitest').RunnerTestCase} test
   * @param {Parameters<TestRunner['onBeforeTryTask']>[1]} options
   * @returns {void | Promise<void>} vitest awaits it
   */
  onBeforeTryTask(test, options) {
    super.onBeforeTryTask(test, options);
    const file = test.file.filepath;
    if (!this.#starting.has(file)) return;
    return new Promise((begin) => {
      this.#waiting.push({ file, begin });
      this.#started(file);
    });
  }

  /** @type {TestRunner['onAfterRunSuite']} */
  onAfterRunSuite(suite) {
    if ('filepath' in suite) this.#started(suite.file.filepath);
    return super.onAfterRunSuite(suite);
  }

  /** @param {import('vitest').RunnerTestFile[]} files */
  async onAfterRunFiles(files) {
    for (const file of files) this.#toCollect.delete(file.filepath);
    if (this.#toCollect.size > 0) return;
    // Each file records its own failures on its tasks; a rejection here is vitest's own, and stays one.
    await Promise.all(this.#held.splice(0).map((run) => Promise.resolve().then(run)));
    return super.onAfterRunFiles(files);
  }
}
