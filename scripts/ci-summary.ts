// npm run ci:summary [-- <results dir>...]: the run's verdict as Markdown (support/evidence/ci-summary.ts),
// appended to $GITHUB_STEP_SUMMARY and printed; `verdict`, `broken-rules` and `layout-changed` go to $GITHUB_OUTPUT.
import { appendFileSync } from 'node:fs';
import { ciSummary } from '../support/evidence/ci-summary.js';
import { ALLURE_RESULTS_DIR } from '../support/run/paths.js';

const resultsDirs = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const {
  GITHUB_SERVER_URL,
  GITHUB_REPOSITORY,
  GITHUB_RUN_ID,
  GITHUB_STEP_SUMMARY,
  GITHUB_OUTPUT,
  CONTRACT_REPORT_ARTIFACT,
} = process.env;
const runLink = GITHUB_RUN_ID ? `${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID}` : undefined;
const summary = await ciSummary({
  resultsDirs: resultsDirs.length ? resultsDirs : [ALLURE_RESULTS_DIR],
  reportLink: runLink && `[${CONTRACT_REPORT_ARTIFACT ?? 'the report artifact'}](${runLink}#artifacts)`,
});
console.log(summary.markdown);
if (GITHUB_STEP_SUMMARY) appendFileSync(GITHUB_STEP_SUMMARY, `${summary.markdown}\n`);
if (GITHUB_OUTPUT)
  appendFileSync(
    GITHUB_OUTPUT,
    `verdict=${summary.passed ? 'passed' : 'failed'}\nbroken-rules=${summary.brokenRules.length}\n` +
      `layout-changed=${summary.layoutChanged}\n`,
  );
