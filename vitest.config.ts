import { defineConfig } from 'vitest/config';
import { ALLURE_RESULTS_DIR, JUNIT_FILE } from './support/run/paths.js';

// Reports are written only by `npm run contract` (scripts/contract.ts sets CONTRACT_REPORTS), so
// the project's own tests never mix into the contract report.
const contractReports = process.env.CONTRACT_REPORTS === '1';

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
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The suite's proofs about itself: types and lint, contract runs against the simulator,
        // target down, secret canary, leak check, mutant matrix. Each starts its own contract runs,
        // which use every core: they run one at a time, after the unit tests.
        extends: true,
        test: {
          name: 'self-checks',
          include: ['tests/self-checks/**/*.test.ts'],
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
          // Spec files wait on the network, not the CPU: run more of them than there are cores.
          // 12 was the fastest of 8/12/16/23 at the 2 s bench profile on 2 cores: fewer workers
          // queue long files behind each other, more pay more start-up imports at the same time.
          pool: 'threads',
          maxWorkers: 12,
          fileParallelism: true,
          // Importing the support library costs a worker ~0.5 s of CPU; without isolation a worker
          // pays it once, not once per file. Nothing depends on a fresh module graph: the
          // redaction registry only grows, counters and wait history are per process by design,
          // fixtures carry the per-test state, and the Allure runtime is re-installed per file.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
