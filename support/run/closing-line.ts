// Owns the closing line of `npm test`, "N passed, N failed", the form CI reads, over every project
// that ran; an error outside any test counts as a failure.
import type { Reporter, TestModule, TestState } from 'vitest/node';

export default class ClosingLine implements Reporter {
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
  }
}
