// Owns the browser check: the single-file report, opened in Debian's headless `chromium` (never a downloaded browser;
// skipped without it), shows every test title and one test's step; reports/report-check.png shows the page.
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ALLURE_REPORT_DIR, ALLURE_RESULTS_DIR, REPORT_CHECK_SCREENSHOT } from '../run/paths.js';
import { readResults } from './run-results.js';

export type BrowserCheckResult =
  | { status: 'skipped'; reason: string }
  | { status: 'passed'; titles: number; step: string; screenshot: string; durationMs: number }
  | { status: 'failed'; reason: string; screenshot?: string };

// Groups whose tests all passed start collapsed (and the search box does not open them), so every
// closed group is opened — one click at a time, as its subgroups appear — before reading titles.
const CLOSED_GROUP = '[data-testid="tree-section"]:has([data-testid="tree-arrow"] svg:not([class*="opened"]))';

export async function checkReportInBrowser(resultsDirs = [ALLURE_RESULTS_DIR]): Promise<BrowserCheckResult> {
  const { CHROMIUM_PATH, PATH = '' } = process.env;
  const candidates = CHROMIUM_PATH ? [CHROMIUM_PATH] : PATH.split(delimiter).map((dir) => join(dir, 'chromium'));
  const executablePath = candidates.find((candidate) => existsSync(candidate));
  if (!executablePath) {
    return { status: 'skipped', reason: "Chromium not found (install Debian's `chromium`, or set CHROMIUM_PATH)" };
  }
  const reportFile = resolve(ALLURE_REPORT_DIR, 'single-file', 'index.html');
  if (!existsSync(reportFile))
    return { status: 'failed', reason: `no report at ${reportFile}: run \`npm run report\` first` };
  const results = readResults(resultsDirs.map((dir) => resolve(dir)));
  const titles = [...new Set(results.map((result) => result.name))].sort();
  if (titles.length === 0) return { status: 'failed', reason: 'no test results to look for' };
  const withSteps = results.find((result) => result.steps?.length);
  const screenshot = resolve(REPORT_CHECK_SCREENSHOT);

  const started = performance.now();
  // Playwright already passes the other flags Debian's Chromium needs headless in a container with no network
  // chatter (--no-sandbox, --disable-background-networking, ...), and a profile of its own that it removes.
  const browser = await chromium.launch({ executablePath, args: ['--disable-gpu'] });
  const page = await browser.newPage();
  try {
    await page.goto(pathToFileURL(reportFile).href);
    await page.getByTestId('tree-content').first().waitFor();
    for (let clicks = 0; clicks < 1000 && (await page.locator(CLOSED_GROUP).count()) > 0; clicks += 1)
      await page.locator(CLOSED_GROUP).first().click();
    const shown = new Set((await page.getByTestId('tree-leaf-title').allInnerTexts()).map((title) => title.trim()));
    const missing = titles.filter((title) => !shown.has(title));
    if (missing.length) throw new Error(`${missing.length} test title(s) not on the page, e.g. "${missing[0]}"`);
    let step = '(no test has steps)';
    if (withSteps) {
      const first = withSteps.steps![0]!.name;
      await page.getByTestId('tree-leaf-title').getByText(withSteps.name, { exact: true }).first().click();
      await page.getByText(first, { exact: true }).first().waitFor({ timeout: 15_000 });
      step = `${withSteps.name} → ${first}`;
    }
    await page.screenshot({ path: screenshot, fullPage: true });
    const durationMs = Math.round(performance.now() - started);
    return { status: 'passed', titles: titles.length, step, screenshot, durationMs };
  } catch (error) {
    await page.screenshot({ path: screenshot, fullPage: true }).catch(() => undefined);
    return { status: 'failed', reason: (error as Error).message.split('\n')[0] ?? String(error), screenshot };
  } finally {
    await browser.close();
  }
}
