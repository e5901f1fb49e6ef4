// Owns how the contract worker runs its spec files: all at once, each file's tests still in order.
// Plain JavaScript because allure-vitest's runner, which wraps this one, imports it with Node's own
// import(), which does not read TypeScript.
//
// A contract spec spends its time waiting for the target (eventual consistency), not computing.
// Run as vitest runs files, one at a time per worker thread, the waits overlap only as far as there
// are workers, and every worker pays its own start-up: on 2 cores, 12 workers cost 8 CPU-seconds
// before a single wait, and doubling the spec files needs twice the workers or twice the time
// (issue 13). Here one worker imports the support library once, collects its files one by one as
// vitest hands them over, and runs them all at once after the last, so the waits overlap however
// many files there are. vitest gives a single non-isolated worker every file (maxWorkers 1,
// isolate false in vitest.config.ts).
//
// vitest's worker calls the runner once per file, collecting it and then running it inside the
// runner's `trace('run.spec', …)` hook. This runner holds each file's run there, and releases all
// of them together when the worker's last file has been collected: no file is collected while
// another runs (vitest would take its tests for tests declared inside a running test). What vitest
// keeps per worker rather than per test (the global `expect` state, the task console output is
// attributed to) is shared by files running at once: the specs use neither (no expect.assertions,
// no snapshots, support/verbs/fixtures.ts names the test of a wait from its own async context),
// and the Allure runtime finds each test through its own (allure-vitest's concurrency-aware runner
// wraps this one).
import { TestRunner } from 'vitest';

export default class ConcurrentFilesRunner extends TestRunner {
  /** @type {(() => unknown)[]} */
  #held = [];

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

  /** @param {import('vitest').RunnerTestFile[]} [files] */
  async onAfterRunFiles(files) {
    // Should a later vitest not say which files the worker was given, every file runs when
    // collected, one after another: slower, never wrong.
    const given = this.workerState?.ctx?.files ?? [];
    const last = given[given.length - 1]?.filepath;
    if (last !== undefined && !files?.some((file) => file.filepath === last)) return;
    // Each file records its own failures on its tasks; a rejection here is vitest's own, and stays one.
    await Promise.all(this.#held.splice(0).map((run) => Promise.resolve().then(run)));
    return super.onAfterRunFiles(files);
  }
}
