// Owns the suite's vitest reporter: npm test's closing line `N passed, N failed`, the form CI reads, and in the mutant
// matrix's run the results file by file under each project's name (vitest's json reporter names files only).
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, TestState } from 'vitest/node';

/** One spec file's outcome, as far as the matrix reads it, in the shape of vitest's json reporter (JsonTestResult). */
export interface FileResult {
  name: string;
  /** An error of the file itself (it could not be collected, a hook failed). */
  message?: string;
  assertionResults: { title: string; status: string; failureMessages?: string[] | null }[];
}

export type ProjectResults = Record<string, FileResult[]>;

const stacks = (errors: ReadonlyArray<{ stack?: string; message: string }>) =>
  errors.map((error) => error.stack ?? error.message);

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
      (results[module.project.name] ??= []).push({
        name: module.moduleId,
        message: stacks(module.errors()).join('\n') || undefined,
        assertionResults: [...module.children.allTests()].map((test) => ({
          title: test.name,
          status: test.result().state,
          failureMessages: stacks(test.result().errors ?? []),
        })),
      });
    }
    writeFileSync(this.options.outputFile, JSON.stringify(results));
  }
}
