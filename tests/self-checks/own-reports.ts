// Each self-check run writes a reports folder of its own (CONTRACT_REPORTS_DIR), removed when the
// test ends: self-checks running at once never read each other's files, and npm test leaves the
// project's reports/ to the user's own runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';
import { reportPaths, REPORTS_DIR_VARIABLE } from '../../support/run/paths.js';

const SCRATCH = fileURLToPath(new URL('../../.tmp', import.meta.url));

/**
 * A fresh reports folder for the test whose context is given (the context's own hook: tests here
 * run concurrently): its paths, and the variable that points a run at it.
 */
export function ownReports(test: Pick<TestContext, 'onTestFinished'>) {
  // Inside the project (.tmp/ is ignored by git and lint): Allure attaches the observed-contract
  // page to the report only from inside the directory it runs in.
  mkdirSync(SCRATCH, { recursive: true });
  const root = mkdtempSync(`${SCRATCH}/reports-`);
  test.onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return { paths: reportPaths(root), env: { [REPORTS_DIR_VARIABLE]: root } };
}
