// Owns reading a run's Allure results: one result per test, and their outcomes under the failure taxonomy of
// allurerc.mjs, classified as Allure classifies them: the console, the CI summary and the gate agree with the report.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { matchCategory, normalizeCategoriesConfig, type TestStatus } from '@allurereport/core-api';
import type { AllureConfig } from 'allure';
import { ALLURE_RESULTS_DIR } from '../run/paths.js';
import type { Category } from './failures.js';

/** A step of a result: its own steps, and what it attached (each file named `source`, beside the result). */
export interface ResultStep {
  name: string;
  steps?: ResultStep[];
  attachments?: { name: string; source: string }[];
}

interface ResultFile {
  name: string;
  fullName?: string;
  historyId?: string;
  status?: TestStatus;
  statusDetails?: { message?: string; trace?: string };
  labels?: { name: string; value: string }[];
  steps?: ResultStep[];
  stop?: number;
}

export type TestOutcome = {
  name: string;
  rule?: string;
  message?: string;
  /** The verdict's fields, from the result's labels (support/evidence/report.ts `labelVerdict`). */
  category?: Category;
  step?: string;
  evidence?: string;
};
/** What broke, as the failure says it after the rule's words (`Then "<step>": <evidence>`); undefined for no rule. */
export function brokenDetail({ category, step, evidence = '' }: TestOutcome): string | undefined {
  if (category !== 'Broken rule') return undefined;
  if (step === undefined) return evidence;
  const [phase, ...title] = step.split(' ');
  return `${phase} "${title.join(' ')}": ${evidence}`;
}

export type RunSummary = Awaited<ReturnType<typeof readRun>>['summary'];

/** One result per test: a retried test is counted once, with its last attempt. */
export function readResults(resultsDirs: string[]): ResultFile[] {
  const latest = new Map<string, ResultFile>();
  for (const dir of resultsDirs.filter((candidate) => existsSync(candidate))) {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('-result.json'))) {
      const result = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultFile;
      const key = result.historyId ?? result.fullName ?? file;
      const known = latest.get(key);
      if (!known || (result.stop ?? 0) >= (known.stop ?? 0)) latest.set(key, result);
    }
  }
  return [...latest.values()];
}

/** `folder` resolved, its allurerc.mjs, the results folders resolved against it, and the summary of their outcomes. */
export async function readRun(resultsDirs = [ALLURE_RESULTS_DIR], folder = '.') {
  const cwd = resolve(folder);
  const config = ((await import(pathToFileURL(join(cwd, 'allurerc.mjs')).href)) as { default: AllureConfig }).default;
  const dirs = resultsDirs.map((dir) => resolve(cwd, dir));
  const results = readResults(dirs);
  const notPassed = results.filter(({ status }) => status !== 'passed' && status !== 'skipped');
  const count = (status: TestStatus) => results.filter((result) => result.status === status).length;
  // A pass whose evidence is the client's own value shown back (a layout file's `by: as-sent`) is no rule proven.
  const shownAsSent = results.filter(
    ({ status, labels = [] }) =>
      status === 'passed' && labels.some(({ name, value }) => name === 'evidence' && value === 'as-sent'),
  ).length;
  const counts = { total: results.length, passed: count('passed'), skipped: count('skipped'), shownAsSent };
  // Every category, in the order Allure matches them, Allure's own catch-alls included.
  const definitions = normalizeCategoriesConfig(config.categories);
  const failed = Map.groupBy(
    notPassed,
    ({ status = 'unknown', labels = [], statusDetails: { message, trace } = {} }) =>
      matchCategory(definitions, { status, labels, message, trace, flaky: false })?.name ?? 'Uncategorised',
  );
  const byCategory = [...new Set([...definitions.map(({ name }) => name), ...failed.keys()])].map((category) => ({
    name: category,
    tests: (failed.get(category) ?? []).map(({ name, labels = [], statusDetails }): TestOutcome => {
      const message = statusDetails?.message?.split('\n')[0];
      // Story labels read "<rule id>: <quote>"; the id is enough on a console line.
      const label = (wanted: string) => labels.find((entry) => entry.name === wanted)?.value;
      const rule = label('story')?.split(':')[0];
      const verdict = { category: label('category') as Category | undefined, step: label('step') };
      return { name, rule, message, ...verdict, evidence: label('evidence') };
    }),
  }));
  // Every rule a failure names, whatever its category (a deadline too), documented promises and HTTP's own apart.
  const rulesIn = (http: boolean) => [
    ...new Set(
      byCategory.flatMap(({ name, tests }) =>
        (name === 'HTTP conformance broken') === http
          ? tests.flatMap((test) => (test.category === 'Broken rule' && test.rule ? [test.rule] : []))
          : [],
      ),
    ),
  ];
  const brokenRules = { documented: rulesIn(false), http: rulesIn(true) };
  return { config, cwd, dirs, summary: { ...counts, notPassed: notPassed.length, byCategory, brokenRules } };
}
