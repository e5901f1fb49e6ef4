// Owns the Allure 3 HTML report (multi-file and single-file, with the run's environment, the observed contract and
// history) and the run's verdict: on the console, as Markdown for CI and the nightly's issue, and the release gate's.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { matchCategory, normalizeCategoriesConfig, type TestStatus } from '@allurereport/core-api';
import type { AllureConfig } from 'allure';
import { specChecks } from '../run/coverage-map.js';
import { readSettings } from '../run/config.js';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR, OBSERVED_DIR } from '../run/paths.js';
import { writeObservedContract } from './observed/history.js';
import { ADVISED_PAGE_SIZE, type ListCost, type ObservedContract } from './observed/model.js';
import { cell, timingsTable } from './observed/page.js';
import { brokenRuleDetail, ruleWords } from './failures.js';

/** The Allure CLI of the pinned `allure` package, run with this Node (no npx, no download). */
export async function allureCli(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.resolve('allure')));
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
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A writer that already died makes the write fail on its exit code, not on a broken pipe.
  child.stdin.on('error', () => {});
  const exited = once(child, 'close') as Promise<[number | null]>;
  return {
    async write(resultsDirs: string[]): Promise<void> {
      child.stdin.end(`${JSON.stringify({ resultsDirs })}\n`);
      const [code] = await exited;
      if (code !== 0) throw new Error(`report: the Allure report writer failed (exit ${code ?? 1}):\n${output}`);
    },
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

type TestOutcome = { name: string; rule?: string; message?: string; broken?: ReturnType<typeof brokenRuleDetail> };
type RunSummary = Awaited<ReturnType<typeof readRun>>['summary'];

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
  const counts = { total: results.length, passed: count('passed'), skipped: count('skipped') };
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
      const rule = labels.find((label) => label.name === 'story')?.value.split(':')[0];
      return { name, rule, message, broken: brokenRuleDetail(message ?? '') };
    }),
  }));
  // Every rule a failure names, whatever its category (a deadline too), documented promises and HTTP's own apart.
  const rulesIn = (http: boolean) => [
    ...new Set(
      byCategory.flatMap(({ name, tests }) =>
        (name === 'HTTP conformance broken') === http ? tests.flatMap((test) => test.broken?.rule ?? []) : [],
      ),
    ),
  ];
  const brokenRules = { documented: rulesIn(false), http: rulesIn(true) };
  return { config, cwd, dirs, summary: { ...counts, notPassed: notPassed.length, byCategory, brokenRules } };
}

/** `text`, cut at the last word boundary before `max` characters with an ellipsis; whole when it has none. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const boundary = text.lastIndexOf(' ', max - 1);
  return boundary <= 0 ? text : `${text.slice(0, boundary).replace(/[\s,;:(—-]+$/, '')}…`;
}

/** A failure on its summary line: under a rule, "Broken: " and what broke; the rule's words are in the report. */
const failureDetail = ({ message = '', broken }: TestOutcome): string =>
  broken
    ? `Broken: ${broken.detail.replace(/^(?!(?:When|Then) ")[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`
    : message;

/** The console summary: the promises found not kept, then only the categories that hold failures, one line each. */
export function formatSummary({ total, passed, notPassed, skipped, byCategory, brokenRules }: RunSummary): string {
  const counts = `${total} test(s) — ${passed} passed, ${notPassed} not passed, ${skipped} skipped`;
  if (total === 0)
    return `Contract run: ${counts}\n  No test results: nothing ran (see the run output above for the reason).`;
  if (notPassed === 0) return `Contract run: ${counts}`;
  const { documented, http } = brokenRules;
  const promises =
    documented.length === 0
      ? 'no documented promise found broken'
      : `${documented.length} documented promise(s) not kept: ${documented.join(', ')}`;
  const httpRules = http.length === 0 ? '' : `; ${http.length} rule(s) of HTTP broken: ${http.join(', ')}`;
  const failing = byCategory.filter((entry) => entry.tests.length > 0);
  const width = Math.max(...failing.map((entry) => entry.name.length));
  const lines = [`Contract run: ${promises}${httpRules}`, `  ${counts}`];
  for (const { name, tests } of failing) {
    lines.push(`  ${name.padEnd(width)}  ${tests.length}`);
    for (const test of tests) {
      const rule = test.rule ? `[${test.rule}] ` : '';
      const detail = test.message ? ` — ${clip(failureDetail(test), 240)}` : '';
      lines.push(`      ✗ ${rule}${test.name}${detail}`);
    }
  }
  return lines.join('\n');
}

type PageSize = ReturnType<typeof readSettings>['pageSize'];

/** What a page size would change, judged by the pages the lists were read in: one or two console lines. */
function pageSizeAdvice(lists: ObservedContract['lists'], pageSize: PageSize): string {
  const total = (pick: (list: ListCost) => number) => lists.reduce((sum, list) => sum + pick(list), 0);
  const [pages, reads] = [total((list) => list.pages), total((list) => list.reads)];
  const fullest = Math.max(...lists.map((list) => list.fullestPage));
  if (pages <= reads) return 'Every read was one page: the reads are many, not long, and no page size saves any.';
  if (pageSize && fullest === pageSize.size)
    return (
      `Pages hold the ${pageSize.size} records CONTRACT_PAGE_SIZE asks for: a larger size, if the sandbox takes ` +
      'one, saves more.'
    );
  if (pageSize)
    return (
      `CONTRACT_PAGE_SIZE=${pageSize.size} is set, but pages held up to ${fullest} records: the sandbox does not ` +
      `take \`${pageSize.parameter}\`\n  (CONTRACT_PAGE_SIZE_PARAMETER names the parameter) or caps its pages.`
    );
  const atAdvised = total((list) => list.pagesAtAdvisedSize);
  if (atAdvised >= pages)
    return `Pages already hold up to ${fullest} records: CONTRACT_PAGE_SIZE=${ADVISED_PAGE_SIZE} would save none.`;
  return (
    `CONTRACT_PAGE_SIZE=${ADVISED_PAGE_SIZE} would read them in about ${atAdvised} pages instead of ${pages}: ` +
    `${pages - atAdvised} requests fewer,\n  if the sandbox takes a page size (named by ` +
    'CONTRACT_PAGE_SIZE_PARAMETER, default pageSize).'
  );
}

/**
 * When pages of lists were more than half of the run's requests: what each list's reads cost and what a page size
 * would save (CONTRACT_PAGE_SIZE); nothing otherwise.
 */
export function listPagesNote(contract: Pick<ObservedContract, 'lists' | 'requests'>, pageSize: PageSize) {
  const { lists, requests } = contract;
  const listRequests = lists.reduce((sum, list) => sum + list.requests, 0);
  if (listRequests * 2 <= requests) return undefined;
  const share = Math.round((100 * listRequests) / requests);
  return [
    `List pages were most of this run: ${listRequests} of its ${requests} requests (${share} %).`,
    ...lists.map(
      (list) =>
        `  ${list.purpose}: ${list.reads} reads, ${list.pages} pages, ${list.requests} requests; the longest to ` +
        `the end ${list.longestWholeRead} pages of up to ${list.fullestPage} records`,
    ),
    `  ${pageSizeAdvice(lists, pageSize)}`,
  ].join('\n');
}

/** The console's lines on list pages, in reports/observed/ when the run printed them. */
const LIST_PAGES_FILE = 'list-pages.txt';

/** The report of `resultsDirs` (default reports/allure-results), `environment` merged over the settings' facts. */
export async function generateReport(
  options: {
    resultsDirs?: string[];
    cwd?: string;
    environment?: Record<string, string>;
    writer?: ReturnType<typeof startReportWriter>;
  } = {},
) {
  const cwd = resolve(options.cwd ?? process.cwd());
  const writer = options.writer ?? startReportWriter(cwd);
  try {
    const { config, dirs, summary } = await readRun(options.resultsDirs, cwd);
    const output = resolve(cwd, config.output ?? ALLURE_REPORT_DIR);
    const started = performance.now();
    let listPages: string | undefined;
    try {
      const { paths, pageSize } = readSettings(process.env, join(cwd, '.env'));
      const keep = process.env.CONTRACT_REPORT_HISTORY !== 'off';
      listPages = listPagesNote(writeObservedContract(cwd, paths, keep, config.historyLimit ?? 60), pageSize);
      // Kept beside the contract for the CI summary, which runs in another process and may not see the settings.
      const listPagesFile = resolve(cwd, OBSERVED_DIR, LIST_PAGES_FILE);
      if (listPages) writeFileSync(listPagesFile, `${listPages}\n`);
      else rmSync(listPagesFile, { force: true });
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
    const multiFile = join(output, 'awesome', 'index.html');
    const singleFile = join(output, 'single-file', 'index.html');
    const missing = [multiFile, singleFile].find((file) => !existsSync(file));
    if (missing)
      throw new Error(`report: the Allure report writer did not write ${missing}; check the plugins in allurerc.mjs`);
    return { multiFile, singleFile, durationMs: Math.round(performance.now() - started), summary, listPages };
  } finally {
    writer.cancel();
  }
}

export function printReport(report: Awaited<ReturnType<typeof generateReport>>): void {
  const { summary, durationMs, singleFile, multiFile, listPages } = report;
  const at = (file: string) => relative(process.cwd(), file);
  console.log(formatSummary(summary));
  if (listPages) console.log(listPages);
  console.log(`Allure report (${durationMs} ms):`);
  console.log(`  single file, opens from disk: ${at(singleFile)}`);
  console.log(`  multi-file (serve it):        ${at(multiFile)}  →  npx allure open ${at(dirname(multiFile))}`);
}

function brokenRuleRows(rules: string[], tests: TestOutcome[]): string[] {
  const checks = specChecks();
  return rules.map((id) => {
    const specs = new Set(checks.flatMap((check) => (check.rule === id ? [`\`${check.file}\``] : [])));
    const failure = tests.find((test) => test.rule === id)?.broken?.detail ?? '';
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
      .filter((test) => !test.broken)
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
  return { passed, brokenRules, markdown };
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
