// Owns writing the Allure report from a run's results, in a process of its own that loads Allure
// and reads its configuration (allurerc.mjs) first and then waits for the results: started with the
// run (scripts/contract.ts), the half second Allure takes to load overlaps the specs instead of
// following them (issue 13). The results folders come as one JSON line on stdin; stdin closed
// without one ends it quietly (a run that never got to its report). Plain JavaScript, started by
// plain node: it must cost no start-up of its own. Paths in allurerc.mjs resolve against this
// process's working directory, which its starter sets (support/evidence/report-generation.ts).
import console from 'node:console';
import process from 'node:process';
import { AllureReport, readConfig } from '@allurereport/core';

async function writeReport() {
  const config = await readConfig(process.cwd());
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  if (input.trim() === '') return;
  /** @type {{ resultsDirs: string[] }} */
  const { resultsDirs } = JSON.parse(input);
  const report = new AllureReport(config);
  await report.start();
  for (const dir of resultsDirs) await report.readDirectory(dir);
  await report.done();
}

// Not a top-level await: with a history path, Allure 3.14's history append (written whole) leaves a
// stream promise that never settles. Its CLI ends when nothing is left to do, and so does this; a
// pending top-level await would end it with exit code 13 instead.
writeReport().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
