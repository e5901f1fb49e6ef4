// npm run report [-- <results dir>...]: the Allure report of a run (or of merged shards) and its failure summary.
import { generateReport, printReport } from '../support/evidence/report-generation.js';

const resultsDirs = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
try {
  printReport(await generateReport({ resultsDirs: resultsDirs.length ? resultsDirs : undefined }));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
