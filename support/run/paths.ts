// Owns where a run writes: every folder and file under reports/, named once. The Allure report's own
// output and history paths are Allure's configuration (allurerc.mjs), read from there.
export const REPORTS_DIR = 'reports';
/** Where allure-vitest writes results (vitest.config.ts) and where the report is generated from. */
export const ALLURE_RESULTS_DIR = `${REPORTS_DIR}/allure-results`;
export const JUNIT_FILE = `${REPORTS_DIR}/junit.xml`;
/** Persons created and not yet deleted, for `npm run sweep` (support/data/ledger.ts). */
export const LEDGER_DIR = `${REPORTS_DIR}/ledger`;
/** What the run observed of the target (support/evidence/observed/). */
export const OBSERVED_DIR = `${REPORTS_DIR}/observed`;
/** Earlier runs' observed contracts, kept with the Allure history (CI carries reports/history). */
export const OBSERVED_HISTORY_DIR = `${REPORTS_DIR}/history/observed`;
export const BENCH_DIR = `${REPORTS_DIR}/bench`;
