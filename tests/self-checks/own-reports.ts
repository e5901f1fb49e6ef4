// Each self-check run writes a reports folder of its own (CONTRACT_REPORTS_DIR), removed when the
// test ends: self-checks running at once never read each other's files, and npm test leaves the
// project's reports/ to the user's own runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { reportPaths, REPORTS_DIR_VARIABLE, type ReportPaths } from '../../support/run/paths.js';

/**
 * A fresh reports folder for the test whose context is given (the context's own hook: tests here
 * run concurrently): its paths, and the variable that points a run at it.
 */
export function ownReports(test: Pick<TestContext, 'onTestFinished'>): { paths: ReportPaths; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'contract-reports-'));
  test.onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return { paths: reportPaths(root), env: { [REPORTS_DIR_VARIABLE]: root } };
}
