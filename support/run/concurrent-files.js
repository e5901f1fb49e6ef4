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

export default class ConcurrentFilesRunner extends TestRunner {
  /** @type {(() => unknown)[]} */
  #held = [];
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
      this.#held.push(() => traced(name, attributes, body));
      return Promise.resolve();
    };
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
