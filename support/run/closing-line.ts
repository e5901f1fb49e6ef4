// Owns the closing line of `npm test`, "N passed, N failed", the form CI reads, over every project
// that ran; an error outside any test counts as a failure.
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLine implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const states = testModules.flatMap((module) => [...module.children.allTests()].map((test) => test.result().state));
    const count = (state: string) => states.filter((candidate) => candidate === state).length;
    const failedModules = testModules.filter(
      (module) => module.state() === 'failed' && [...module.children.allTests()].length === 0,
    ).length;
    const skipped = count('skipped');
    console.log(
      `${count('passed')} passed, ${count('failed') + failedModules + unhandledErrors.length} ` +
        `failed${skipped ? `, ${skipped} skipped` : ''}`,
    );
  }
}
