// Owns where a run writes, each folder and file under the reports folder named once (allurerc.mjs reads the variable).

/** Moves a run's reports out of `reports/`: the self-checks run several whole runs at once, each its own. */
export const REPORTS_DIR_VARIABLE = 'CONTRACT_REPORTS_DIR';

export function reportPaths(root: string) {
  return {
    root,
    allureResults: `${root}/allure-results`,
    /** The generated report (allurerc.mjs `output`). */
    allureReport: `${root}/allure-report`,
    junit: `${root}/junit.xml`,
    /** Persons created and not yet deleted, for `npm run sweep` (support/data/ledger.ts). */
    ledger: `${root}/ledger`,
    observed: `${root}/observed`,
    /** Earlier runs' observed contracts, kept with the Allure history (CI carries reports/history). */
    observedHistory: `${root}/history/observed`,
    bench: `${root}/bench`,
    /** What a learning run proposes when CONTRACT_LAYOUT names no file to learn into (support/layout/learning.ts). */
    layoutProposal: `${root}/layout-proposal.json`,
    /** Each wait's last answer beside its control's, as a learning run's workers saw them. */
    learningJournal: `${root}/learning`,
    /** The screenshot of the report as a reader sees it (npm run report:browser). */
    reportCheckScreenshot: `${root}/report-check.png`,
  };
}

/** The reports folder the variables name (`reports` by default): the process's, or a file run's own. */
export const reportsOf = (env: NodeJS.ProcessEnv) => reportPaths(env[REPORTS_DIR_VARIABLE] || 'reports');

const paths = reportsOf(process.env);

export const ALLURE_RESULTS_DIR = paths.allureResults;
export const ALLURE_REPORT_DIR = paths.allureReport;
export const JUNIT_FILE = paths.junit;
export const LEDGER_DIR = paths.ledger;
export const OBSERVED_DIR = paths.observed;
export const OBSERVED_HISTORY_DIR = paths.observedHistory;
export const BENCH_DIR = paths.bench;
export const LAYOUT_PROPOSAL_FILE = paths.layoutProposal;
export const LEARNING_JOURNAL_DIR = paths.learningJournal;
export const REPORT_CHECK_SCREENSHOT = paths.reportCheckScreenshot;
