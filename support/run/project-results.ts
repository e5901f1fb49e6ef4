// Owns the results of a run of several vitest projects, file by file under each project's name:
// vitest's json reporter names files only, and the mutant matrix runs the same spec file in one
// project per mutant. Written by vitest.config.ts's reporter when the run has a mutant plan.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** One spec file's outcome, in the field names of vitest's json reporter (whose results are one too). */
export interface FileResult {
  name: string;
  /** An error of the file itself (it could not be collected, a hook failed). */
  message?: string;
  assertionResults: { title: string; status: string; failureMessages?: string[] }[];
}

/** Files by project name. */
export type ProjectResults = Record<string, FileResult[]>;

export default class ProjectResultsReporter implements Reporter {
  constructor(private readonly options: { outputFile: string }) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const results: ProjectResults = {};
    for (const module of testModules) {
      const errors = module.errors().map((error) => error.stack ?? error.message);
      (results[module.project.name] ??= []).push({
        name: module.moduleId,
        message: errors.length > 0 ? errors.join('\n') : undefined,
        assertionResults: [...module.children.allTests()].map((test) => {
          const result = test.result();
          return {
            title: test.name,
            status: result.state,
            failureMessages: (result.errors ?? []).map((error) => error.stack ?? error.message),
          };
        }),
      });
    }
    writeFileSync(this.options.outputFile, JSON.stringify(results));
  }
}
