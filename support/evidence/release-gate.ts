// Owns the release gate: Allure's quality gate (allurerc.mjs `qualityGate`) over one or more results folders, with the
// failures accepted for a release (docs/known-issues.json) left out, and its verdict.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { formatSummary } from './console-summary.js';
import { readRun } from './run-results.js';

/** The Allure CLI of the pinned `allure` package, run with this Node (no npx, no download). */
export async function allureCli(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.resolve('allure')));
  return promisify(execFile)(process.execPath, [cli, ...args], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

// The release gate: allurerc.mjs's quality gate, given only its fields (allure 3.14.3's appends to a historyPath and
// never settles: a failed gate would exit 0); `rules`, `knownIssuesPath` override its own (tests: a low minTestsCount).
export async function evaluateGate(
  options: { resultsDirs?: string[]; cwd?: string; knownIssuesPath?: string; rules?: { minTestsCount?: number } } = {},
) {
  const { config, cwd, dirs, summary } = await readRun(options.resultsDirs, options.cwd);
  const rules = config.qualityGate?.rules?.map((ruleset) => ({ ...ruleset, ...options.rules }));
  if (!rules?.length) throw new Error('gate: allurerc.mjs has no qualityGate rules');
  const scratch = mkdtempSync(join(tmpdir(), 'contract-gate-'));
  try {
    const gateConfig = join(scratch, 'allurerc.json');
    const knownIssuesPath = resolve(cwd, options.knownIssuesPath ?? config.knownIssuesPath ?? 'docs/known-issues.json');
    writeFileSync(gateConfig, JSON.stringify({ qualityGate: { rules }, knownIssuesPath }));
    const details = await allureCli(['quality-gate', ...dirs, '--config', gateConfig], cwd).then(
      () => '',
      ({ stdout = '', stderr = '', message }: { stdout?: string; stderr?: string; message: string }) =>
        `${stdout}${stderr}`.trim() || message,
    );
    return { passed: details === '', details, summary };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function formatVerdict({ passed, details, summary }: Awaited<ReturnType<typeof evaluateGate>>): string {
  const head = passed
    ? `RELEASE GATE PASSED: ${summary.total} test(s), no failure outside the accepted known issues.`
    : `RELEASE GATE FAILED: ${summary.total} test(s), ${summary.notPassed} not passed.`;
  return [formatSummary(summary), details, head].filter(Boolean).join('\n');
}
