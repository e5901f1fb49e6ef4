// Owns the Allure 3 HTML report of a run (multi-file and single-file) with its environment block, the observed contract
// written beside it and the history, and what `npm run report` prints: the summary, and where the report is.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../run/config.js';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR, OBSERVED_DIR, OBSERVED_HISTORY_DIR } from '../run/paths.js';
import { formatSummary, LIST_PAGES_FILE, listPagesNote } from './console-summary.js';
import { writeObservedContract } from './observed/history.js';
import { readRun } from './run-results.js';

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
      const folders = { observed: OBSERVED_DIR, observedHistory: OBSERVED_HISTORY_DIR };
      const contract = writeObservedContract(cwd, folders, paths, keep, config.historyLimit ?? 60);
      listPages = listPagesNote(contract, pageSize);
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
