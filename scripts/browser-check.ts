// npm run report:browser [-- <results dir>...]: opens the single-file report in headless Chromium (skipped without
// Chromium).
import { checkReportInBrowser } from '../support/evidence/browser-check.js';

const resultsDirs = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const result = await checkReportInBrowser(resultsDirs.length ? resultsDirs : undefined);
switch (result.status) {
  case 'skipped':
    console.log(`report:browser skipped: ${result.reason}.`);
    break;
  case 'passed':
    console.log(
      `report:browser passed: ${result.titles} test title(s) and the step "${result.step}" found in headless ` +
        `Chromium (${result.durationMs} ms); screenshot ${result.screenshot}`,
    );
    break;
  case 'failed':
    console.error(
      `report:browser FAILED: ${result.reason}${result.screenshot ? ` (screenshot ${result.screenshot})` : ''}`,
    );
    process.exitCode = 1;
}
