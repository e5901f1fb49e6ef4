// Owns the browser check of the report: opens the single-file Allure report in headless Chromium, as a reader would:
// finds every test title of the run on the page, opens one test and finds one of its steps, and saves a screenshot
// to reports/report-check.png. Uses Debian's `chromium` (never a browser a tool downloads itself);
// where it is missing the check says so and is skipped, exit code 0.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR, REPORT_CHECK_SCREENSHOT } from '../run/paths.js';

export interface BrowserCheckOptions {
  cwd?: string;
  reportFile?: string;
  resultsDirs?: string[];
  screenshot?: string;
  /** Default: $CHROMIUM_PATH, else `chromium` on the PATH. */
  executablePath?: string;
  timeoutMs?: number;
}

export type BrowserCheckResult =
  | { status: 'skipped'; reason: string }
  | { status: 'passed'; titles: number; step: string; screenshot: string; durationMs: number }
  | { status: 'failed'; reason: string; screenshot?: string };

// STACK-NOTES: the flags Debian's Chromium needs headless in a container, with no network chatter.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return (env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'chromium'))
    .find((candidate) => existsSync(candidate));
}

interface Expectations {
  titles: string[];
  /** A test that has steps, and the name of its first step. */
  stepOf?: { title: string; step: string };
}

function expectationsFrom(resultsDirs: string[]): Expectations {
  const titles = new Set<string>();
  let stepOf: Expectations['stepOf'];
  for (const dir of resultsDirs.filter((candidate) => existsSync(candidate))) {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('-result.json'))) {
      const result = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { name: string; steps?: { name: string }[] };
      titles.add(result.name);
      const [first] = result.steps ?? [];
      if (!stepOf && first) stepOf = { title: result.name, step: first.name };
    }
  }
  return { titles: [...titles].sort(), stepOf };
}

// Groups whose tests all passed start collapsed (and the search box does not open them), so every
// closed group is opened — one click at a time, as its subgroups appear — before reading titles.
const CLOSED_GROUP = '[data-testid="tree-section"]:has([data-testid="tree-arrow"] svg:not([class*="opened"]))';

async function openAllGroups(page: Page): Promise<void> {
  await page.getByTestId('tree-content').first().waitFor();
  for (let clicks = 0; clicks < 1000 && (await page.locator(CLOSED_GROUP).count()) > 0; clicks += 1) {
    await page.locator(CLOSED_GROUP).first().click();
  }
}

export async function checkReportInBrowser(options: BrowserCheckOptions = {}): Promise<BrowserCheckResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const executablePath = options.executablePath ?? findChromium();
  if (!executablePath) {
    return { status: 'skipped', reason: "Chromium not found (install Debian's `chromium`, or set CHROMIUM_PATH)" };
  }
  const reportFile = resolve(cwd, options.reportFile ?? join(ALLURE_REPORT_DIR, 'single-file', 'index.html'));
  if (!existsSync(reportFile))
    return { status: 'failed', reason: `no report at ${reportFile}: run \`npm run report\` first` };
  const expected = expectationsFrom((options.resultsDirs ?? [ALLURE_RESULTS_DIR]).map((dir) => resolve(cwd, dir)));
  if (expected.titles.length === 0) return { status: 'failed', reason: 'no test results to look for' };
  const screenshot = resolve(cwd, options.screenshot ?? REPORT_CHECK_SCREENSHOT);
  const timeoutMs = options.timeoutMs ?? 15_000;

  const started = performance.now();
  const profile = mkdtempSync(join(tmpdir(), 'contract-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page = await context.newPage();
  try {
    await page.goto(pathToFileURL(reportFile).href);
    await openAllGroups(page);
    const shown = new Set((await page.getByTestId('tree-leaf-title').allInnerTexts()).map((title) => title.trim()));
    const missing = expected.titles.filter((title) => !shown.has(title));
    if (missing.length) throw new Error(`${missing.length} test title(s) not on the page, e.g. "${missing[0]}"`);
    let step = '(no test has steps)';
    if (expected.stepOf) {
      await page.getByTestId('tree-leaf-title').getByText(expected.stepOf.title, { exact: true }).first().click();
      await page.getByText(expected.stepOf.step, { exact: true }).first().waitFor({ timeout: timeoutMs });
      step = `${expected.stepOf.title} → ${expected.stepOf.step}`;
    }
    await page.screenshot({ path: screenshot, fullPage: true });
    return {
      status: 'passed',
      titles: expected.titles.length,
      step,
      screenshot,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await page.screenshot({ path: screenshot, fullPage: true }).catch(() => undefined);
    return { status: 'failed', reason: (error as Error).message.split('\n')[0] ?? String(error), screenshot };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
