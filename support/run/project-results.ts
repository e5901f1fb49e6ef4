// Owns a run's results file by file under each project's name, for the mutant matrix, which runs the
// same spec file in one project per mutant: vitest's json reporter names files only.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** One spec file's outcome, in the field names of vitest's json reporter. */
export interface FileResult {
  name: string;
  /** An error of the file itself (it could not be collected, a hook failed). */
  message?: string;
  assertionResults: { title: string; status: string; failureMessages?: string[] }[];
}

export type ProjectResults = Record<string, FileResult[]>;

const stacks = (errors: ReadonlyArray<{ stack?: string; message: string }>) =>
  errors.map((error) => error.stack ?? error.message);

export default class ProjectResultsReporter implements Reporter {
  constructor(private readonly options: { outputFile: string }) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
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
