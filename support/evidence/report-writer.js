// Owns writing the Allure report in a process of its own: it loads Allure and allurerc.mjs while the specs run, then
// reads the results folders as a JSON line on stdin (none: it ends quietly). Plain JavaScript: no start-up (issue 13).
import console from 'node:console';
import process from 'node:process';
import { AllureReport, readConfig } from '@allurereport/core';

async function writeReport() {
  const config = await readConfig(process.cwd());
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  if (input.trim() === '') return;
  const { resultsDirs } = JSON.parse(input);
  const report = new AllureReport(config);
  await report.start();
  for (const dir of resultsDirs) await report.readDirectory(dir);
  await report.done();
}

// Not a top-level await: Allure 3.14's history append never settles, and a pending one would exit 13 instead of 0.
writeReport().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
