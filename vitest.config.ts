import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParsedStack, TestError } from 'vitest';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestProject, type TestSpecification } from 'vitest/node';
import { ALLURE_RESULTS_DIR, JUNIT_FILE } from './support/run/paths.js';
import { PROJECT_PLAN_VARIABLE, readProjectPlan } from './support/run/project-plan.js';
import { TEST_TIMEOUT_VARIABLE } from './support/evidence/test-time.js';

// Node keeps the code it compiles on disk: npm test starts some hundred workers and child runs, each loading the same
// support library and packages. Set here, every one of them inherits it.
process.env.NODE_COMPILE_CACHE ||= fileURLToPath(new URL('./node_modules/.cache/node-compile/', import.meta.url));
enableCompileCache(process.env.NODE_COMPILE_CACHE);

// Reports are written only by `npm run contract` (scripts/contract.ts sets CONTRACT_REPORTS), so
// the project's own tests never mix into the contract report.
const contractReports = process.env.CONTRACT_REPORTS === '1';

/** A whole number from the environment, at least `least`, or `fallback` when unset. */
function wholeNumberSetting(
  variable: string,
  fallback: number,
  least: number,
  unit: string,
  env = process.env,
): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${variable}="${raw}" is invalid: use a whole number${unit}, ${least} or more.`);
  return value;
}

// How many tests the contract worker runs at once: every test of the suite (256 is several times
// as many) unless the bench's one-at-a-time figure sets CONTRACT_TESTS_AT_ONCE=1.
const testsAtOnce = wholeNumberSetting('CONTRACT_TESTS_AT_ONCE', 256, 1, '');
// How much time of its own one contract test may take: 120 s unless CONTRACT_TEST_TIMEOUT_MS says.
// Its turn behind other tests' requests at the client's rate is not its own (support/evidence/test-time.ts).
const testOwnTimeMs = wholeNumberSetting(TEST_TIMEOUT_VARIABLE, 120_000, 1_000, ' of milliseconds');
// vitest's own timeout only backs up the run's bound (test-time.ts), which fails a test in a category first.
const BACKSTOP_MS = 3_600_000;

// Runs of the contract specs that one vitest process runs, a project and a simulator each
// (support/run/project-plan.ts): the mutant matrix's, and those of self-checks with many runs.
const projectPlan = readProjectPlan(process.env[PROJECT_PLAN_VARIABLE]);

// `npm run contract` writes the Allure results and junit.xml; a planned run's process writes its results file
// (project-plan.ts), and Allure's results too where a self-check reads a run's categories as the report files them.
const reporters: (string | [string, Record<string, unknown>])[] = ['default'];
if (contractReports)
  reporters.push(['allure-vitest/reporter', { resultsDir: ALLURE_RESULTS_DIR }], ['junit', { outputFile: JUNIT_FILE }]);
if (projectPlan) reporters.push(['./support/run/suite-reporter.ts', { outputFile: projectPlan.resultsFile }]);
else if (!contractReports) reporters.push('./support/run/suite-reporter.ts');

const SUPPORT_LIBRARY = fileURLToPath(new URL('./support/', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The spec files a project's one worker is given in this run, or none (ConcurrentFilesSequencer). */
    concurrentSpecFiles: string[];
    /** How much time of its own a contract test may take. */
    testOwnTimeMs: number;
    /** Where each spec file is a run of its own (project-plan.ts): its variables, by the file's absolute path. */
    fileRuns?: Record<string, Record<string, string>>;
  }
}

/**
 * vitest's own order, and for the project that is given all its files in one worker the list of
 * those files, after filters and shards, so its runner (support/run/concurrent-files.js) knows when
 * the last has been collected. vitest 5 hands one worker all of a project's files at once when the
 * project runs one non-isolated worker and is the first of its group in this order.
 */
class ConcurrentFilesSequencer extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(specs);
    // File runs (project-plan.ts `packFileRuns`) are all one project's files, each a run: none is batched.
    const fileRuns = projectPlan?.filesAtOnce !== undefined;
    const firstOfGroup = new Map<number, TestProject>();
    for (const { project } of sorted)
      if (!firstOfGroup.has(project.config.sequence.groupOrder))
        firstOfGroup.set(project.config.sequence.groupOrder, project);
    for (const project of new Set(sorted.map((spec) => spec.project))) {
      const { isolate, maxWorkers, pool } = project.config;
      const oneWorker = !fileRuns && !isolate && maxWorkers === 1 && (pool === 'threads' || pool === 'forks');
      const files = sorted.filter((spec) => spec.project === project).map((spec) => spec.moduleId);
      const batched = oneWorker && firstOfGroup.get(project.config.sequence.groupOrder) === project;
      project.provide('concurrentSpecFiles', batched ? files : []);
    }
    return sorted;
  }
}

// How the contract specs run, for the contract project and each planned run's project alike.
const contractRun = {
  globalSetup: ['support/run/global-setup.ts'],
  // Spec files wait on the network, not the CPU. One worker thread imports the support
  // library once and runs every file at once (support/run/concurrent-files.js says how), so
  // the waits overlap however many files there are, start-up is paid once and every test of a
  // client shares one pace (docs/DESIGN.md, "What each remaining mechanism buys").
  pool: 'threads' as const,
  maxWorkers: 1,
  // Files share one module graph: nothing depends on a fresh one. The redaction registry
  // only grows, counters and wait history are per process by design, fixtures carry the
  // per-test state, and the Allure runtime finds each test through its async context.
  isolate: false,
  runner: './support/run/concurrent-files.js',
  // vitest lets this many tests of a worker run at once (default 5), the ones of
  // concurrent files included.
  maxConcurrency: testsAtOnce,
  testTimeout: BACKSTOP_MS,
  provide: { testOwnTimeMs },
  hookTimeout: 60_000,
  // The transformed support library is kept on disk (node_modules/.vitest-cache) for the next run,
  // and for every project of a run of several: the mutant matrix transforms it once, not once per
  // mutant. Global setup reads no error's stack under this cache (support/run/global-setup.ts says
  // why; target-down checks the message).
  fsModuleCache: true,
  // A failure's console trace ends at the spec's line: the support library's frames say how the
  // suite waits and reports, not where the rule broke. The report keeps the whole stack.
  onStackTrace: (_error: TestError, { file }: ParsedStack) => !file.startsWith(SUPPORT_LIBRARY),
};

// npm test's workers, shared by the unit tests and the self-checks (projects that run side by side
// must agree on it in vitest). npm test is bound by CPU, not by workers; three keep a self-check's
// contract runs, which mostly wait, from holding every worker while unit tests queue.
const WORKERS = 3;

export default defineConfig({
  test: {
    sequence: { sequencer: ConcurrentFilesSequencer },
    reporters,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/self-checks/**'],
          // Threads sharing their module graph, which costs less CPU than a fresh one per file: no unit
          // test mocks a module, stubs the environment or changes directory, and each file's tests build
          // their own objects.
          pool: 'threads',
          isolate: false,
          maxWorkers: WORKERS,
          // Some unit tests start a process (the Allure CLI, the simulator under tsx, the workflow
          // linters), which takes seconds while the self-checks share the cores: vitest's 5 s default
          // would fail them for the machine's load, not for what they check.
          testTimeout: 30_000,
          // What unit tests poll for in real time (a simulator's effect, a request arriving) comes within milliseconds;
          // the poll's own limit (1 s by default) only has to catch what never comes, not a busy machine's answers.
          expect: { poll: { timeout: 20_000 } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The suite's proofs about itself: each starts simulators and runs of its own, writing a
        // reports folder of its own (tests/self-checks/own-reports.ts), so they all run at once,
        // beside the unit tests. Their runs mostly wait.
        extends: true,
        test: {
          name: 'self-checks',
          include: ['tests/self-checks/**/*.test.ts'],
          pool: 'forks',
          // A fork serves file after file: no self-check mocks a module, stubs the environment or changes directory,
          // and what each starts is its own (runs, simulators, reports folders).
          isolate: false,
          maxWorkers: WORKERS,
          // A backstop for a child run that hangs, never a verdict on how busy the machine is: every run a self-check
          // starts bounds its own tests, and on 2 busy cores the longest take minutes.
          testTimeout: 1_800_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['specs/**/*.spec.ts'],
          ...contractRun,
        },
      },
      // A planned run's project differs from the contract project in its simulator's and suite's variables (global
      // setup reads the project's env, a file run its file's too). File runs are one project, `filesAtOnce` workers
      // running its files one after another; runs one after another are each a group of their own, first in it, so
      // that its one worker is given all its files at once (ConcurrentFilesSequencer).
      ...(projectPlan?.runs ?? []).map(({ name, specs, env, fileEnv }, index) => ({
        extends: true as const,
        test: {
          ...contractRun,
          name,
          include: specs,
          env,
          provide: {
            testOwnTimeMs: wholeNumberSetting(TEST_TIMEOUT_VARIABLE, testOwnTimeMs, 1_000, ' of milliseconds', env),
            ...(projectPlan!.filesAtOnce && {
              fileRuns: Object.fromEntries(specs.map((spec) => [resolve(spec), fileEnv?.[spec] ?? {}])),
            }),
          },
          ...(projectPlan!.filesAtOnce
            ? { maxWorkers: projectPlan!.filesAtOnce }
            : { maxWorkers: 1, sequence: { groupOrder: index + 1 } }),
        },
      })),
    ],
  },
});
