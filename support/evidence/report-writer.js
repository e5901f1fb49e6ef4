// Owns writing the Allure report in a process of its own: it loads Allure and allurerc.mjs (resolved against the
// working directory its starter sets) while the specs run, then reads the results folders as one JSON line on stdin;
// stdin closed without one ends it quietly. Plain JavaScript, started by plain node: no start-up of its own (issue 13).
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

// Not a top-level await: Allure 3.14's history append leaves a promise that never settles, and a pending top-level
// await would end the process with exit code 13 instead of 0.
writeReport().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
