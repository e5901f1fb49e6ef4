// Owns what every vitest start loads from support/run: the mutant matrix's plan, and the suite's reporter: npm test's
// closing line and, in the matrix's run, the results by project (vitest's json reporter names files only).
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, TestState } from 'vitest/node';

export const MUTANT_PLAN_VARIABLE = 'CONTRACT_MUTANT_PLAN';

export interface MutantPlan {
  resultsFile: string;
  /** Mutant projects whose spec files run at the same time, each in a worker of its own. */
  mutantsAtOnce: number;
  mutants: MutantRun[];
}

/** One mutant in one simulator layout: its spec files and the simulator's variables. */
export interface MutantRun {
  mutant: string;
  layout: string;
  specs: string[];
  env: Record<string, string>;
}

export const mutantProjectName = (mutant: string, layout = 'standard'): string =>
  layout === 'standard' ? `mutant:${mutant}` : `mutant:${mutant}@${layout}`;

export const readMutantPlan = (raw: string | undefined): MutantPlan | undefined =>
  raw ? (JSON.parse(raw) as MutantPlan) : undefined;

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
