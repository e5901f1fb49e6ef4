// Owns writing the Allure report in a process of its own: it loads Allure and allurerc.mjs while the specs run, then
// reads the results folders as a JSON line on stdin (none: it ends quietly). Plain JavaScript, so that plain node
// starts it without a TypeScript loader to load first.
import process from 'node:process';
import { AllureReport, readConfig } from '@allurereport/core';

const config = await readConfig(process.cwd());
let input = '';
for await (const chunk of process.stdin) input += chunk;
if (input.trim() !== '') {
  const { resultsDirs } = JSON.parse(input);
  const report = new AllureReport(config);
  await report.start();
  for (const dir of resultsDirs) await report.readDirectory(dir);
  await report.done();
}
