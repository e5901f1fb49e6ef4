// Owns turning reports/allure-results into the Allure 3 HTML report (multi-file and single-file),
// with the run's environment block, the observed contract as global attachments, and history carried
// in reports/history/history.jsonl; and the failure-taxonomy summary printed after it.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  matchCategory,
  normalizeCategoriesConfig,
  type CategoryMatchingData,
  type TestStatus,
} from '@allurereport/core-api';
import type { AllureConfig } from 'allure';
import { readSettings } from '../run/config.js';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR } from '../run/paths.js';
import { writeObservedContract } from './observed/write.js';
import { brokenRuleDetail } from './failures.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The Allure CLI of the pinned `allure` package, run with this Node (no npx, no download). */
export async function allureCli(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const cli = join(dirname(require.resolve('allure')), '..', 'cli.js');
  return run(process.execPath, [cli, ...args], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

/** The Allure report's writer, started ahead of the results (support/evidence/report-writer.js). */
export interface ReportWriter {
  /** Writes the report from these results folders; rejects with the writer's output when it fails. */
  write(resultsDirs: string[]): Promise<void>;
  /** Ends the writer without a report. */
  cancel(): void;
}

const writerScript = fileURLToPath(new URL('./report-writer.js', import.meta.url));

/** Starts the report writer in `cwd`, where allurerc.mjs is: it loads Allure meanwhile. */
export function startReportWriter(cwd = process.cwd()): ReportWriter {
  const child = spawn(process.execPath, [writerScript], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A writer that already died makes the write fail on its exit code, not on a broken pipe.
  child.stdin.on('error', () => {});
  const exited = new Promise<number>((settle, fail) => {
    child.on('error', fail);
    child.on('close', (code) => settle(code ?? 1));
  });
  return {
    async write(resultsDirs) {
      child.stdin.end(`${JSON.stringify({ resultsDirs })}\n`);
      const code = await exited;
      if (code !== 0) throw new Error(`report: the Allure report writer failed (exit ${code}):\n${output}`);
    },
    cancel: () => child.stdin.end(),
  };
}

export async function loadAllureConfig(cwd = process.cwd()): Promise<AllureConfig> {
  const module = (await import(pathToFileURL(join(cwd, 'allurerc.mjs')).href)) as { default: AllureConfig };
  return module.default;
}

// ---------------------------------------------------------------------------------------------
// Environment block

// Read from node_modules rather than resolved: `allure` does not export its package.json.
function packageVersion(cwd: string, name: string): string {
  return (JSON.parse(readFileSync(join(cwd, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/**
 * What the report's environment block shows. Read from the same settings the run used; a broken
 * configuration still gets a report (the run's ConfigError is in it), so it is shown, not thrown.
 * The seed is known here only when CONTRACT_SEED is set: scripts/contract.ts sets it before the
 * run so every report can be replayed.
 */
export function runEnvironment(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Record<string, string> {
  const suite = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name: string; version: string };
  const facts: Record<string, string> = {};
  try {
    const settings = readSettings(env, join(cwd, '.env'));
    facts.target = settings.baseUrl ? `sandbox (${new URL(settings.baseUrl).host})` : 'embedded simulator';
    facts.market = settings.market;
    facts.seed = settings.seed === undefined ? 'random (CONTRACT_SEED not set)' : String(settings.seed);
  } catch (error) {
    facts.configuration = (error as Error).message;
  }
  return {
    ...facts,
    suite: `${suite.name}@${suite.version}${env.GITHUB_SHA ? ` (${env.GITHUB_SHA.slice(0, 12)})` : ''}`,
    node: process.version,
    vitest: packageVersion(cwd, 'vitest'),
    'allure-vitest': packageVersion(cwd, 'allure-vitest'),
    allure: packageVersion(cwd, 'allure'),
  };
}

/** environment.properties is the Allure results file the report's environment block is read from. */
export function writeEnvironmentProperties(resultsDir: string, environment: Record<string, string>): void {
  const escape = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/[=:]/g, '\\$&');
  const lines = Object.entries(environment).map(([key, value]) => `${escape(key)}=${escape(value)}`);
  writeFileSync(join(resultsDir, 'environment.properties'), `${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------
// Failure-taxonomy summary

interface ResultFile {
  name: string;
  fullName?: string;
  historyId?: string;
  status?: TestStatus;
  statusDetails?: { message?: string; trace?: string };
  labels?: { name: string; value: string }[];
  stop?: number;
}

export interface TestOutcome {
  name: string;
  status: TestStatus;
  /** Category name (allurerc.mjs `categories`); undefined when the test passed or was skipped. */
  category?: string;
  rule?: string;
  message?: string;
}

export interface RunSummary {
  total: number;
  passed: number;
  skipped: number;
  notPassed: number;
  /** Every category, in the order Allure matches them, Allure's own catch-alls included. */
  byCategory: { name: string; tests: TestOutcome[] }[];
}

/** One outcome per test: a retried test is counted once, with its last attempt. */
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

export function classifyResults(results: ResultFile[], categories: AllureConfig['categories']): RunSummary {
  const definitions = normalizeCategoriesConfig(categories);
  const byCategory = definitions.map((definition) => ({
    name: definition.name,
    tests: [] as TestOutcome[],
  }));
  const summary: RunSummary = { total: results.length, passed: 0, skipped: 0, notPassed: 0, byCategory };
  for (const result of results) {
    const status = result.status ?? 'unknown';
    if (status === 'passed') summary.passed += 1;
    else if (status === 'skipped') summary.skipped += 1;
    else {
      summary.notPassed += 1;
      const data: CategoryMatchingData = {
        status,
        labels: result.labels ?? [],
        message: result.statusDetails?.message,
        trace: result.statusDetails?.trace,
        flaky: false,
      };
      const category = matchCategory(definitions, data)?.name ?? 'Uncategorised';
      const outcome: TestOutcome = {
        name: result.name,
        status,
        category,
        // Story labels read "<rule id>: <quote>"; the id is enough on a console line.
        rule: result.labels?.find((label) => label.name === 'story')?.value.split(':')[0],
        message: result.statusDetails?.message?.split('\n')[0],
      };
      const bucket = byCategory.find((entry) => entry.name === category);
      if (bucket) bucket.tests.push(outcome);
      else byCategory.push({ name: category, tests: [outcome] });
    }
  }
  return summary;
}

const HTTP_CONFORMANCE = 'HTTP conformance broken';

/** The rules the run found broken: documented promises, and HTTP's own rules (RFC 9110) apart. */
export interface BrokenRules {
  documented: string[];
  http: string[];
}

/**
 * Every failure named under its rule is a promise not kept, whatever its category: an effect not
 * shown by the deadline too, for the documentation promises it.
 */
export function brokenRulesOf(summary: RunSummary): BrokenRules {
  const named = summary.byCategory.flatMap(({ name, tests }) =>
    tests.flatMap((test) => {
      const broken = brokenRuleDetail(test.message ?? '');
      return broken ? [{ rule: broken.rule, http: name === HTTP_CONFORMANCE }] : [];
    }),
  );
  const ids = (http: boolean) => [...new Set(named.filter((each) => each.http === http).map(({ rule }) => rule))];
  return { documented: ids(false), http: ids(true) };
}

/** A summary line's failure, at most this long: cut at a word, or not at all. */
const DETAIL_CHARS = 240;

/** `text`, cut at the last word boundary before `max` characters with an ellipsis; whole when it has none. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const boundary = text.lastIndexOf(' ', max - 1);
  return boundary <= 0 ? text : `${text.slice(0, boundary).replace(/[\s,;:(—-]+$/, '')}…`;
}

/** A failure on its summary line: under a rule, "Broken: " and what broke; the rule's words are in the report. */
function failureDetail(message: string): string {
  const broken = brokenRuleDetail(message);
  if (!broken) return message;
  const detail = /^[A-Z][a-z]/.test(broken.detail)
    ? `${broken.detail[0]!.toLowerCase()}${broken.detail.slice(1)}`
    : broken.detail;
  return `Broken: ${detail}`;
}

/**
 * The console summary: a run with failures starts with the promises it found not kept, then lists
 * only the categories that hold failures, each failure on one line.
 */
export function formatSummary(summary: RunSummary): string {
  const counts =
    `${summary.total} test(s) — ${summary.passed} passed, ${summary.notPassed} not passed, ` +
    `${summary.skipped} skipped`;
  if (summary.notPassed === 0) {
    const nothing =
      summary.total === 0 ? ['  No test results: nothing ran (see the run output above for the reason).'] : [];
    return [`Contract run: ${counts}`, ...nothing].join('\n');
  }
  const { documented, http } = brokenRulesOf(summary);
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
      const detail = test.message ? ` — ${clip(failureDetail(test.message), DETAIL_CHARS)}` : '';
      lines.push(`      ✗ ${rule}${test.name}${detail}`);
    }
  }
  return lines.join('\n');
}

/** Prints the console failure-taxonomy summary of a results directory (or several, after sharding). */
export async function summarize(
  resultsDir: string | string[] = ALLURE_RESULTS_DIR,
  cwd = process.cwd(),
): Promise<RunSummary> {
  const config = await loadAllureConfig(cwd);
  const dirs = (Array.isArray(resultsDir) ? resultsDir : [resultsDir]).map((dir) => resolve(cwd, dir));
  const summary = classifyResults(readResults(dirs), config.categories);
  console.log(formatSummary(summary));
  return summary;
}

// ---------------------------------------------------------------------------------------------
// Report generation

export interface ReportOptions {
  /** Allure results directories (several after a sharded run); default reports/allure-results. */
  resultsDirs?: string[];
  /** Project root: where allurerc.mjs is and relative paths start; default the current directory. */
  cwd?: string;
  /** Merged over runEnvironment(): what the caller knows better (e.g. the resolved target). */
  environment?: Record<string, string>;
  /** A writer started earlier in `cwd` (startReportWriter); default: one started here. */
  writer?: ReportWriter;
}

export interface GeneratedReport {
  /** Multi-file report (needs a web server: `npx allure open reports/allure-report/awesome`). */
  multiFile: string;
  /** One HTML file that opens from disk. */
  singleFile: string;
  durationMs: number;
  summary: RunSummary;
}

export async function generateReport(options: ReportOptions = {}): Promise<GeneratedReport> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const writer = options.writer ?? startReportWriter(cwd);
  try {
    return await writeReport(cwd, writer, options);
  } finally {
    writer.cancel();
  }
}

async function writeReport(cwd: string, writer: ReportWriter, options: ReportOptions): Promise<GeneratedReport> {
  const config = await loadAllureConfig(cwd);
  const output = resolve(cwd, config.output ?? ALLURE_REPORT_DIR);
  const resultsDirs = (options.resultsDirs ?? [ALLURE_RESULTS_DIR]).map((dir) => resolve(cwd, dir));
  const started = performance.now();

  try {
    const settings = readSettings(process.env, join(cwd, '.env'));
    writeObservedContract({
      cwd,
      paths: settings.paths,
      keep: process.env.CONTRACT_REPORT_HISTORY !== 'off',
      historyLimit: config.historyLimit ?? 60,
    });
  } catch (error) {
    // The observed contract documents; a run whose observations cannot be read still gets its report.
    console.warn(`report: observed contract skipped: ${(error as Error).message}`);
  }
  // A run stopped before any test (a configuration error) still gets a report: it shows the
  // environment and that nothing ran, where a missing report would only raise questions.
  const [firstResults = resolve(cwd, ALLURE_RESULTS_DIR)] = resultsDirs;
  mkdirSync(firstResults, { recursive: true });
  writeEnvironmentProperties(firstResults, { ...runEnvironment(process.env, cwd), ...options.environment });
  // Stale files of an earlier report (a renamed plugin, a removed attachment) must not survive.
  rmSync(output, { recursive: true, force: true });
  await writer.write(resultsDirs);

  const report: GeneratedReport = {
    multiFile: join(output, 'awesome', 'index.html'),
    singleFile: join(output, 'single-file', 'index.html'),
    durationMs: Math.round(performance.now() - started),
    summary: classifyResults(readResults(resultsDirs), config.categories),
  };
  for (const file of [report.multiFile, report.singleFile]) {
    if (!existsSync(file))
      throw new Error(`report: the Allure report writer did not write ${file}; check the plugins in allurerc.mjs`);
  }
  return report;
}

export function printReport(report: GeneratedReport, cwd = process.cwd()): void {
  console.log(formatSummary(report.summary));
  console.log(`Allure report (${report.durationMs} ms):`);
  console.log(`  single file, opens from disk: ${relative(cwd, report.singleFile)}`);
  console.log(
    `  multi-file (serve it):        ${relative(cwd, report.multiFile)}  →  npx allure open ` +
      `${relative(cwd, dirname(report.multiFile))}`,
  );
}
