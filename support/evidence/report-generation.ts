// Owns the Allure 3 HTML report of reports/allure-results (multi-file and single-file, with the run's
// environment and the observed contract, history in reports/history) and the failure-taxonomy summary.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { matchCategory, normalizeCategoriesConfig, type TestStatus } from '@allurereport/core-api';
import type { AllureConfig } from 'allure';
import { readSettings } from '../run/config.js';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR } from '../run/paths.js';
import { writeObservedContract } from './observed/history.js';
import { brokenRuleDetail } from './failures.js';

const require = createRequire(import.meta.url);

/** The Allure CLI of the pinned `allure` package, run with this Node (no npx, no download). */
export async function allureCli(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const cli = join(dirname(require.resolve('allure')), '..', 'cli.js');
  return promisify(execFile)(process.execPath, [cli, ...args], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

/** Starts support/evidence/report-writer.js in `cwd`, where allurerc.mjs is: it loads Allure meanwhile. */
export function startReportWriter(cwd = process.cwd()) {
  const writer = fileURLToPath(new URL('./report-writer.js', import.meta.url));
  const child = spawn(process.execPath, [writer], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A writer that already died makes the write fail on its exit code, not on a broken pipe.
  child.stdin.on('error', () => {});
  const exited = once(child, 'close') as Promise<[number | null]>;
  return {
    async write(resultsDirs: string[]): Promise<void> {
      child.stdin.end(`${JSON.stringify({ resultsDirs })}\n`);
      const [code] = await exited;
      if (code !== 0) throw new Error(`report: the Allure report writer failed (exit ${code ?? 1}):\n${output}`);
    },
    /** Ends the writer without a report. */
    cancel: () => void child.stdin.end(),
  };
}

const readPackage = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };

/** The report's environment block: a broken configuration is shown, not thrown; the seed if CONTRACT_SEED is set. */
function runEnvironment(env: NodeJS.ProcessEnv, cwd: string): Record<string, string> {
  const suite = readPackage(join(cwd, 'package.json'));
  const facts: Record<string, string> = {};
  try {
    const settings = readSettings(env, join(cwd, '.env'));
    facts.target = settings.baseUrl ? `sandbox (${new URL(settings.baseUrl).host})` : 'embedded simulator';
    facts.market = settings.market;
    facts.seed = settings.seed === undefined ? 'random (CONTRACT_SEED not set)' : String(settings.seed);
  } catch (error) {
    facts.configuration = (error as Error).message;
  }
  facts.suite = `${suite.name}@${suite.version}${env.GITHUB_SHA ? ` (${env.GITHUB_SHA.slice(0, 12)})` : ''}`;
  facts.node = process.version;
  // Read from node_modules rather than resolved: `allure` does not export its package.json.
  for (const name of ['vitest', 'allure-vitest', 'allure'])
    facts[name] = readPackage(join(cwd, 'node_modules', name, 'package.json')).version;
  return facts;
}

interface ResultFile {
  name: string;
  fullName?: string;
  historyId?: string;
  status?: TestStatus;
  statusDetails?: { message?: string; trace?: string };
  labels?: { name: string; value: string }[];
  steps?: { name: string }[];
  stop?: number;
}

export interface TestOutcome {
  name: string;
  rule?: string;
  message?: string;
  /** The rule the failure names as broken, and what broke. */
  broken?: { rule: string; detail: string };
}

export interface RunSummary {
  total: number;
  passed: number;
  skipped: number;
  notPassed: number;
  /** Every category, in the order Allure matches them, Allure's own catch-alls included. */
  byCategory: { name: string; tests: TestOutcome[] }[];
  /** Every rule a failure names, whatever its category (a deadline too), documented promises and HTTP's own apart. */
  brokenRules: { documented: string[]; http: string[] };
}

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

function classifyResults(results: ResultFile[], categories: AllureConfig['categories']): RunSummary {
  const definitions = normalizeCategoriesConfig(categories);
  const byCategory = definitions.map(({ name }) => ({ name, tests: [] as TestOutcome[] }));
  const summary = { total: results.length, passed: 0, skipped: 0, notPassed: 0, byCategory };
  for (const { name, status = 'unknown', labels = [], statusDetails } of results) {
    if (status === 'passed' || status === 'skipped') {
      summary[status] += 1;
      continue;
    }
    summary.notPassed += 1;
    const { message, trace } = statusDetails ?? {};
    const category =
      matchCategory(definitions, { status, labels, message, trace, flaky: false })?.name ?? 'Uncategorised';
    const firstLine = message?.split('\n')[0];
    const broken = brokenRuleDetail(firstLine ?? '');
    // Story labels read "<rule id>: <quote>"; the id is enough on a console line.
    const rule = labels.find((label) => label.name === 'story')?.value.split(':')[0];
    const outcome: TestOutcome = { name, rule, message: firstLine, broken };
    const bucket = byCategory.find((entry) => entry.name === category);
    if (bucket) bucket.tests.push(outcome);
    else byCategory.push({ name: category, tests: [outcome] });
  }
  const rulesIn = (http: boolean) => [
    ...new Set(
      byCategory.flatMap(({ name, tests }) =>
        (name === 'HTTP conformance broken') === http ? tests.flatMap((test) => test.broken?.rule ?? []) : [],
      ),
    ),
  ];
  return { ...summary, brokenRules: { documented: rulesIn(false), http: rulesIn(true) } };
}

/** allurerc.mjs of `cwd`, the results folders resolved against it, and the summary of their outcomes. */
export async function readRun(resultsDirs = [ALLURE_RESULTS_DIR], cwd = process.cwd()) {
  const config = ((await import(pathToFileURL(join(cwd, 'allurerc.mjs')).href)) as { default: AllureConfig }).default;
  const dirs = resultsDirs.map((dir) => resolve(cwd, dir));
  return { config, dirs, summary: classifyResults(readResults(dirs), config.categories) };
}

/** `text`, cut at the last word boundary before `max` characters with an ellipsis; whole when it has none. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const boundary = text.lastIndexOf(' ', max - 1);
  return boundary <= 0 ? text : `${text.slice(0, boundary).replace(/[\s,;:(—-]+$/, '')}…`;
}

/** A failure on its summary line: under a rule, "Broken: " and what broke; the rule's words are in the report. */
function failureDetail({ message = '', broken }: TestOutcome): string {
  if (!broken) return message;
  const { detail } = broken;
  return `Broken: ${/^[A-Z][a-z]/.test(detail) ? `${detail[0]!.toLowerCase()}${detail.slice(1)}` : detail}`;
}

/** The console summary: the promises found not kept, then only the categories that hold failures, one line each. */
export function formatSummary(summary: RunSummary): string {
  const counts =
    `${summary.total} test(s) — ${summary.passed} passed, ${summary.notPassed} not passed, ` +
    `${summary.skipped} skipped`;
  if (summary.notPassed === 0) {
    const nothing =
      summary.total === 0 ? ['  No test results: nothing ran (see the run output above for the reason).'] : [];
    return [`Contract run: ${counts}`, ...nothing].join('\n');
  }
  const { documented, http } = summary.brokenRules;
  const promises =
    documented.length === 0
      ? 'no documented promise found broken'
      : `${documented.length} documented promise(s) not kept: ${documented.join(', ')}`;
  const httpRules = http.length === 0 ? '' : `; ${http.length} rule(s) of HTTP broken: ${http.join(', ')}`;
  const failing = summary.byCategory.filter((entry) => entry.tests.length > 0);
  const width = Math.max(...failing.map((entry) => entry.name.length));
  const lines = [`Contract run: ${promises}${httpRules}`, `  ${counts}`];
  for (const { name, tests } of failing) {
    lines.push(`  ${name.padEnd(width)}  ${tests.length}`);
    for (const test of tests) {
      const rule = test.rule ? `[${test.rule}] ` : '';
      // At most 240 characters, cut at a word.
      const detail = test.message ? ` — ${clip(failureDetail(test), 240)}` : '';
      lines.push(`      ✗ ${rule}${test.name}${detail}`);
    }
  }
  return lines.join('\n');
}

export interface ReportOptions {
  /** Default reports/allure-results; several after a sharded run. */
  resultsDirs?: string[];
  /** Where allurerc.mjs is; default the current directory. */
  cwd?: string;
  /** Merged over the environment read from the settings: what the caller knows better. */
  environment?: Record<string, string>;
  /** Default: one started here. */
  writer?: ReturnType<typeof startReportWriter>;
}

export async function generateReport(options: ReportOptions = {}) {
  const cwd = resolve(options.cwd ?? process.cwd());
  const writer = options.writer ?? startReportWriter(cwd);
  try {
    const { config, dirs, summary } = await readRun(options.resultsDirs, cwd);
    const output = resolve(cwd, config.output ?? ALLURE_REPORT_DIR);
    const started = performance.now();
    try {
      const settings = readSettings(process.env, join(cwd, '.env'));
      const keep = process.env.CONTRACT_REPORT_HISTORY !== 'off';
      writeObservedContract(cwd, settings.paths, keep, config.historyLimit ?? 60);
    } catch (error) {
      // The observed contract documents; a run whose observations cannot be read still gets its report.
      console.warn(`report: observed contract skipped: ${(error as Error).message}`);
    }
    // A run stopped before any test (a configuration error) still gets a report: its environment, and that nothing ran.
    const [firstResults = resolve(cwd, ALLURE_RESULTS_DIR)] = dirs;
    mkdirSync(firstResults, { recursive: true });
    const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/[=:]/g, '\\$&');
    const environment = { ...runEnvironment(process.env, cwd), ...options.environment };
    const lines = Object.entries(environment).map(([key, value]) => `${escape(key)}=${escape(value)}\n`);
    writeFileSync(join(firstResults, 'environment.properties'), lines.join(''));
    // Stale files of an earlier report (a renamed plugin, a removed attachment) must not survive.
    rmSync(output, { recursive: true, force: true });
    await writer.write(dirs);
    const report = {
      multiFile: join(output, 'awesome', 'index.html'),
      singleFile: join(output, 'single-file', 'index.html'),
      durationMs: Math.round(performance.now() - started),
      summary,
    };
    for (const file of [report.multiFile, report.singleFile]) {
      if (!existsSync(file))
        throw new Error(`report: the Allure report writer did not write ${file}; check the plugins in allurerc.mjs`);
    }
    return report;
  } finally {
    writer.cancel();
  }
}

export function printReport(report: Awaited<ReturnType<typeof generateReport>>, cwd = process.cwd()): void {
  console.log(formatSummary(report.summary));
  console.log(`Allure report (${report.durationMs} ms):`);
  console.log(`  single file, opens from disk: ${relative(cwd, report.singleFile)}`);
  console.log(
    `  multi-file (serve it):        ${relative(cwd, report.multiFile)}  →  npx allure open ` +
      `${relative(cwd, dirname(report.multiFile))}`,
  );
}
