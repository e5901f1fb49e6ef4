// Owns the release gate over one or more results folders, and its verdict: as many tests as catalogued rules, and
// Allure's quality gate (allurerc.mjs `qualityGate`) with the failures accepted for a release (allurerc.mjs
// `resolutions`, from docs/resolutions.json) left out.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { catalogue } from '../run/catalogue.js';
import { formatSummary } from './console-summary.js';
import { readRun } from './run-results.js';

/** The Allure CLI of the installed `allure` package, run with this Node (no npx, no download). */
async function allureCli(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.resolve('allure')));
  return promisify(execFile)(process.execPath, [cli, ...args], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

/**
 * Every catalogued rule has a spec (tests/unit/coverage-map.test.ts), so fewer tests than rules means part of the suite
 * did not run, and "nothing ran" never passes. Counted here, over every result: Allure's minTestsCount leaves out the
 * tests whose failure a resolution accepts, so a run with an accepted failure would seem to lack a test.
 */
function everyRuleRan(total: number): string {
  const rules = catalogue.rules.length;
  return total >= rules
    ? ''
    : `${total} test(s) ran, fewer than the ${rules} catalogued rules: part of the suite did not run.`;
}

/**
 * The gate's verdict on `resultsDirs` (default reports/allure-results) by the allurerc.mjs in `cwd`. The CLI is given
 * the gate's fields only, in a config of its own: with allurerc.mjs whole it would append the run to the history a
 * second time and write its files over the report's. A failure an `accepted` or `muted` rule matches is not counted.
 */
export async function evaluateGate(options: { resultsDirs?: string[]; cwd?: string } = {}) {
  const { config, cwd, dirs, summary } = await readRun(options.resultsDirs, options.cwd);
  if (!config.qualityGate?.rules?.length) throw new Error('gate: allurerc.mjs has no qualityGate rules');
  const scratch = mkdtempSync(join(tmpdir(), 'contract-gate-'));
  try {
    const gateConfig = join(scratch, 'allurerc.json');
    // What Allure writes of a gate (its results and verdict, the failures each `issue` rule matched) stays in here.
    const knownIssuesPath = join(scratch, 'known-issues.json');
    const resolutions = config.resolutions && { ...config.resolutions, knownIssuesPath };
    const { rules } = config.qualityGate;
    writeFileSync(gateConfig, JSON.stringify({ output: join(scratch, 'report'), qualityGate: { rules }, resolutions }));
    const allure = await allureCli(['quality-gate', ...dirs, '--config', gateConfig], cwd).then(
      () => '',
      ({ stdout = '', stderr = '', message }: { stdout?: string; stderr?: string; message: string }) =>
        `${stdout}${stderr}`.trim() || message,
    );
    const details = [everyRuleRan(summary.total), allure].filter(Boolean).join('\n');
    return { passed: details === '', details, summary };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function formatVerdict({ passed, details, summary }: Awaited<ReturnType<typeof evaluateGate>>): string {
  const head = passed
    ? `RELEASE GATE PASSED: ${summary.total} test(s), no failure outside the accepted ones (docs/resolutions.json).`
    : `RELEASE GATE FAILED: ${summary.total} test(s), ${summary.notPassed} not passed.`;
  return [formatSummary(summary), details, head].filter(Boolean).join('\n');
}
