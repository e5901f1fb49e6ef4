// Owns the release gate: allurerc.mjs's quality gate over results folders. Its config holds only the gate's fields:
// with a historyPath, allure 3.14.3's quality-gate appends to it and never settles, so a failed gate would exit 0.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { allureCli, formatSummary, readRun } from './report-generation.js';

// `rules` overrides allurerc.mjs's (tests use a small minTestsCount), `knownIssuesPath` its known issues.
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
    return await allureCli(['quality-gate', ...dirs, '--config', gateConfig], cwd).then(
      () => ({ passed: true, details: '', summary }),
      ({ stdout = '', stderr = '', message }: { stdout?: string; stderr?: string; message: string }) => ({
        passed: false,
        details: `${stdout}${stderr}`.trim() || message,
        summary,
      }),
    );
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
