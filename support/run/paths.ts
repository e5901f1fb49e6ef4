// Owns where a run writes: every folder and file under the reports folder, named once. The Allure
// report's own configuration (allurerc.mjs) reads the same variable for its output and history.

/** Every folder and file of a run's reports, under `root`. */
export function reportPaths(root: string) {
  return {
    root,
    /** Where allure-vitest writes results and the report is generated from. */
    allureResults: `${root}/allure-results`,
    /** The generated report (allurerc.mjs `output`). */
    allureReport: `${root}/allure-report`,
    junit: `${root}/junit.xml`,
    /** Persons created and not yet deleted, for `npm run sweep` (support/data/ledger.ts). */
    ledger: `${root}/ledger`,
    /** What the run observed of the target (support/evidence/observed/). */
    observed: `${root}/observed`,
    /** Earlier runs' observed contracts, kept with the Allure history (CI carries reports/history). */
    observedHistory: `${root}/history/observed`,
    bench: `${root}/bench`,
    /** The screenshot of the report as a reader sees it (npm run report:browser). */
    reportCheckScreenshot: `${root}/report-check.png`,
  };
}

export type ReportPaths = ReturnType<typeof reportPaths>;

/** Moves a run's reports out of `reports/`: the self-checks run several whole runs at once, each its own. */
export const REPORTS_DIR_VARIABLE = 'CONTRACT_REPORTS_DIR';

const paths = reportPaths(process.env[REPORTS_DIR_VARIABLE] || 'reports');

export const ALLURE_RESULTS_DIR = paths.allureResults;
export const ALLURE_REPORT_DIR = paths.allureReport;
export const JUNIT_FILE = paths.junit;
export const LEDGER_DIR = paths.ledger;
export const OBSERVED_DIR = paths.observed;
export const OBSERVED_HISTORY_DIR = paths.observedHistory;
export const BENCH_DIR = paths.bench;
export const REPORT_CHECK_SCREENSHOT = paths.reportCheckScreenshot;
