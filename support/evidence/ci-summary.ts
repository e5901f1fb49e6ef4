// Owns a run's verdict as Markdown, for the CI run summary and the nightly's issue: each broken rule with its words
// and its spec, the failures that blame no rule, time to consistency, the console's lines on list pages.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { specChecks } from '../run/coverage-map.js';
import { OBSERVED_DIR } from '../run/paths.js';
import { clip, LIST_PAGES_FILE } from './console-summary.js';
import { ruleWords } from './failures.js';
import type { ObservedContract } from './observed/model.js';
import { cell, timingsTable } from './observed/page.js';
import { brokenDetail, readRun, type TestOutcome } from './run-results.js';

function brokenRuleRows(rules: string[], tests: TestOutcome[]): string[] {
  const checks = specChecks();
  return rules.map((id) => {
    const specs = new Set(checks.flatMap((check) => (check.rule === id ? [`\`${check.file}\``] : [])));
    const failure = tests.flatMap((test) => (test.rule === id ? (brokenDetail(test) ?? []) : []))[0] ?? '';
    return `| \`${id}\` | ${cell(ruleWords(id))} | ${[...specs].join(', ')} | ${cell(clip(failure, 200))} |`;
  });
}

/** A Markdown table and the blank line after it; nothing without rows. */
const table = (columns: string[], rows: string[]): string[] =>
  rows.length === 0 ? [] : [`| ${columns.join(' | ')} |`, `|${'---|'.repeat(columns.length)}`, ...rows, ''];

function timingsSection(file: string): string[] {
  if (!existsSync(file)) return ['Time to consistency: not measured in this run.'];
  const table = timingsTable(JSON.parse(readFileSync(file, 'utf8')) as ObservedContract['timings']);
  return table.length === 0
    ? ['Time to consistency: no transition was measured.']
    : ['### Time to consistency', '', ...table];
}

/** The console's lines on list pages as a section; none when the run printed none. */
function listPagesSection(file: string): string[] {
  return existsSync(file) ? ['### List pages', '', '```text', readFileSync(file, 'utf8').trimEnd(), '```', ''] : [];
}

/**
 * Pass or fail, each broken rule with its words and spec, the other failures, time to consistency, list pages when
 * they were most of the run, the report.
 */
export async function ciSummary(options: {
  resultsDirs: string[];
  reportLink?: string;
  timingsFile?: string;
  listPagesFile?: string;
}) {
  const { cwd, summary } = await readRun(options.resultsDirs);
  const brokenRules = [...summary.brokenRules.documented, ...summary.brokenRules.http];
  const failed = summary.byCategory.filter((entry) => entry.tests.length > 0);
  const tests = failed.flatMap((entry) => entry.tests);
  // Failures that blame no rule (a precondition, a permission, a path, the target), each with what it says to fix.
  const others = failed.flatMap((entry) =>
    entry.tests
      .filter((test) => brokenDetail(test) === undefined)
      .map((test) => `| ${entry.name} | ${cell(test.name)} | ${cell((test.message ?? '').slice(0, 300))} |`),
  );
  const passed = summary.total > 0 && summary.notPassed === 0;
  const markdown = [
    `## Contract suite: ${passed ? 'PASSED' : 'FAILED'}`,
    '',
    `${summary.total} test(s): ${summary.passed} passed, ${summary.notPassed} not passed, ${summary.skipped} skipped.`,
    '',
    ...(brokenRules.length === 0
      ? ['No documented rule is broken.', '']
      : [
          `### Broken rules (${brokenRules.length})`,
          '',
          ...table(['rule', 'the documentation says', 'spec', 'failure'], brokenRuleRows(brokenRules, tests)),
        ]),
    ...table(
      ['category', 'tests'],
      failed.map((entry) => `| ${entry.name} | ${entry.tests.length} |`),
    ),
    ...(others.length === 0 ? [] : ['### Failures that break no documented rule', '']),
    ...table(['category', 'test', 'cause and fix'], others),
    ...timingsSection(options.timingsFile ?? resolve(cwd, OBSERVED_DIR, 'timings.json')),
    '',
    ...listPagesSection(options.listPagesFile ?? resolve(cwd, OBSERVED_DIR, LIST_PAGES_FILE)),
    options.reportLink ? `Report: ${options.reportLink}` : "Report: the run's artifacts.",
    '',
  ].join('\n');
  // The nightly's issue is titled after it: a vendor's change to review, not a broken promise.
  const layoutChanged = failed.some((entry) => entry.name === 'Layout changed');
  return { passed, brokenRules, layoutChanged, markdown };
}
