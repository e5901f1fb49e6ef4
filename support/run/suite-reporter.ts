// Owns the suite's vitest reporter: npm test's closing line `N passed, N failed`, the form CI reads, and in the mutant
// matrix's run the results file by file under each project's name (vitest's json reporter names files only).
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, TestState } from 'vitest/node';
import { verdictOf, type Verdict } from '../evidence/failures.js';

/** A failure as data: its verdict's fields (support/evidence/failures.ts), none for a failure that carries none. */
export type Failure = Partial<Verdict> & { name?: string; message: string };

/** One spec file's outcome, as far as the matrix reads it, in the shape of vitest's json reporter (JsonTestResult). */
export interface FileResult {
  name: string;
  /** An error of the file itself (it could not be collected, a hook failed). */
  message?: string;
  /** The file's own errors as data, as `failures` of a test. */
  failures?: Failure[];
  assertionResults: { title: string; status: string; failureMessages?: string[] | null; failures?: Failure[] }[];
  /** When its first test began and its last ended, in ms since the epoch, if it has tests: files in flight at once. */
  startTime?: number;
  endTime?: number;
}

export type ProjectResults = Record<string, FileResult[]>;

type Reported = ReadonlyArray<{ stack?: string; message: string; name?: string }>;

const stacks = (errors: Reported) => errors.map((error) => error.stack ?? error.message);

/** vitest keeps a thrown error's own enumerable fields in the errors it reports: the verdict's among them. */
const failuresOf = (errors: Reported): Failure[] =>
  errors.map((error) => ({ ...verdictOf(error), name: error.name, message: error.message }));

export default class SuiteReporter implements Reporter {
  constructor(private readonly options: { outputFile?: string } = {}) {}

  /** "N passed, N failed", the form CI reads, over every project that ran; an error outside any test is a failure. */
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const count = (state: TestState) => testModules.flatMap((module) => [...module.children.allTests(state)]).length;
    const failedModules = testModules.filter(
      (module) => module.state() === 'failed' && [...module.children.allTests()].length === 0,
    ).length;
    const skipped = count('skipped');
    console.log(
      `${count('passed')} passed, ${count('failed') + failedModules + unhandledErrors.length} ` +
        `failed${skipped ? `, ${skipped} skipped` : ''}`,
    );
    if (!this.options.outputFile) return;
    const results: ProjectResults = {};
    for (const module of testModules) {
      const tests = [...module.children.allTests()];
      const timings = tests.flatMap((test) => test.diagnostic() ?? []);
      (results[module.project.name] ??= []).push({
        name: module.moduleId,
        ...(timings.length > 0 && {
          startTime: Math.min(...timings.map(({ startTime }) => startTime)),
          endTime: Math.max(...timings.map(({ startTime, duration }) => startTime + duration)),
        }),
        message: stacks(module.errors()).join('\n') || undefined,
        failures: failuresOf(module.errors()),
        assertionResults: tests.map((test) => ({
          title: test.name,
          status: test.result().state,
          failureMessages: stacks(test.result().errors ?? []),
          failures: failuresOf(test.result().errors ?? []),
        })),
      });
    }
    writeFileSync(this.options.outputFile, JSON.stringify(results));
  }
}
