import { defineConfig } from 'vitest/config';
import { ALLURE_RESULTS_DIR, JUNIT_FILE } from './support/run/paths.js';

// Reports are written only by `npm run contract` (scripts/contract.ts sets CONTRACT_REPORTS), so
// the project's own tests never mix into the contract report.
const contractReports = process.env.CONTRACT_REPORTS === '1';

// How many tests the contract worker runs at once: every test of the suite (256 is several times
// as many) unless the bench's one-at-a-time figure sets CONTRACT_TESTS_AT_ONCE=1.
function testsAtOnce(raw = process.env.CONTRACT_TESTS_AT_ONCE): number {
  if (raw === undefined || raw === '') return 256;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`CONTRACT_TESTS_AT_ONCE="${raw}" is invalid: use a whole number, 1 or more.`);
  return value;
}

const SELF_CHECKS_ALONGSIDE = ['static', 'contract-runs', 'token-lifetime', 'mutant-matrix'].map((name) => `tests/self-checks/${name}.test.ts`);

export default defineConfig({
  test: {
    reporters: contractReports
      ? ['default', ['allure-vitest/reporter', { resultsDir: ALLURE_RESULTS_DIR }], ['junit', { outputFile: JUNIT_FILE }]]
      : ['default', './support/run/closing-line.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/self-checks/**'],
          pool: 'forks',
          // Every core (vitest's default leaves one free: on 2 cores, one worker took 27 s, two 18 s).
          maxWorkers: '100%',
          // Some unit tests start a process (the Allure CLI, the simulator under tsx, the workflow
          // linters), taking 2 to 4.5 s while the self-checks share the cores: vitest's 5 s default
          // would fail them for the machine's load, not for what they check.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The suite's proofs about itself that start simulators of their own and read back only
        // what their runs print or answer (types and lint, the runs in every paging style, token
        // lifetimes, the mutant matrix): they run alongside the unit tests, sharing the
        // cores with them. Their contract runs mostly wait.
        extends: true,
        test: {
          name: 'self-checks-parallel',
          include: SELF_CHECKS_ALONGSIDE,
          pool: 'forks',
          maxWorkers: '100%',
          testTimeout: 300_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The proofs that read back what a run wrote under reports/ (the secret canary, the
        // observed contract, target down) or sweep its ledgers (the leak check): one at a time,
        // after everything else, so no other run writes there meanwhile.
        extends: true,
        test: {
          name: 'self-checks',
          include: ['tests/self-checks/**/*.test.ts'],
          exclude: SELF_CHECKS_ALONGSIDE,
          pool: 'forks',
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['specs/**/*.spec.ts'],
          globalSetup: ['support/run/global-setup.ts'],
          // Spec files wait on the network, not the CPU. One worker thread imports the support
          // library once and runs every file at once (support/run/concurrent-files.js says how), so
          // the waits overlap however many files there are and start-up is paid once. Measured on 2
          // cores (issue 13, npm run bench): with every delay zero, one such worker takes about 3 s
          // wall and 4 CPU-seconds; 8 ordinary workers took 3.6 s and 6.1, 12 took 4.8 s and 7.7. At
          // the 2 s profile it is as fast as 12 workers (13 to 16 s, bounded by the slowest file),
          // and a suite of twice the files no longer needs twice the workers.
          // (vitest's experimental fsModuleCache would save a little more, but with it an error
          // thrown in global setup crashes vitest's stack-trace mapping: the run's one clear
          // message about a down target or a wrong secret is lost.)
          pool: 'threads',
          maxWorkers: 1,
          // Files share one module graph: nothing depends on a fresh one. The redaction registry
          // only grows, counters and wait history are per process by design, fixtures carry the
          // per-test state, and the Allure runtime finds each test through its async context.
          isolate: false,
          runner: './support/run/concurrent-files.js',
          // vitest lets this many tests of a worker run at once (default 5), the ones of
          // concurrent files included.
          maxConcurrency: testsAtOnce(),
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
