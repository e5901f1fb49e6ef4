// Owns the release gate: allurerc.mjs's quality gate (no failure outside docs/known-issues.json; at least as many tests
// as catalogued rules) over results folders. Its config holds only the gate's fields: with a historyPath, allure
// 3.14.3's quality-gate appends to the history and never settles, so a failed gate would exit 0.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { allureCli, formatSummary, readRun, type RunSummary } from './report-generation.js';

export interface GateOptions {
  resultsDirs?: string[];
  cwd?: string;
  /** Overrides allurerc.mjs `knownIssuesPath`. */
  knownIssuesPath?: string;
  /** Overrides the rules of allurerc.mjs `qualityGate` (tests use a small `minTestsCount`). */
  rules?: { maxFailures?: number; minTestsCount?: number };
}

export interface GateVerdict {
  passed: boolean;
  /** What Allure said about the failed rules; empty when the gate passed. */
  details: string;
  summary: RunSummary;
}

export async function evaluateGate(options: GateOptions = {}): Promise<GateVerdict> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { config, dirs, summary } = await readRun(options.resultsDirs, cwd);
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

export function formatVerdict({ passed, details, summary }: GateVerdict): string {
  const head = passed
    ? `RELEASE GATE PASSED: ${summary.total} test(s), no failure outside the accepted known issues.`
    : `RELEASE GATE FAILED: ${summary.total} test(s), ${summary.notPassed} not passed.`;
  return [formatSummary(summary), details, head].filter(Boolean).join('\n');
}
