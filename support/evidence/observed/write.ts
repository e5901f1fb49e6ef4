// Owns writing a run's observed contract: reports/observed/{openapi.json, timings.json,
// observed-contract.md, time-to-consistency.svg}, and keeping it in the history for the next run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redactText } from '../../transport/redact.js';
import type { OperationPaths } from '../../run/config.js';
import { OBSERVED_DIR, OBSERVED_HISTORY_DIR } from '../../run/paths.js';
import { changesSince, keepContract, keptContracts, trendChart } from './history.js';
import { buildContract, readObservationLines, type ObservedContract } from './model.js';
import { observedOpenApi } from './openapi.js';
import { renderObservedPage } from './page.js';

export interface ObservedFiles {
  contract: ObservedContract;
  openapi: string;
  timings: string;
  page: string;
  chart: string;
}

export interface WriteOptions {
  cwd: string;
  /** Where each operation was called (the configured paths). */
  paths: OperationPaths;
  /** Keep this run in the history (off for the suite's self-check runs). */
  keep: boolean;
  historyLimit: number;
}

export function writeObservedContract(options: WriteOptions): ObservedFiles {
  const dir = resolve(options.cwd, OBSERVED_DIR);
  const historyDir = resolve(options.cwd, OBSERVED_HISTORY_DIR);
  mkdirSync(dir, { recursive: true });
  // The recorded bodies were redacted when the client published them; every document written here
  // passes the redaction point once more as text (registered secrets, Basic and Bearer credentials).
  const contract = buildContract(readObservationLines(dir));
  const earlier = keptContracts(historyDir);
  const previous = earlier.at(-1);
  const now = { at: new Date().toISOString(), contract };
  const files: ObservedFiles = {
    contract,
    openapi: join(dir, 'openapi.json'),
    timings: join(dir, 'timings.json'),
    page: join(dir, 'observed-contract.md'),
    chart: join(dir, 'time-to-consistency.svg'),
  };
  const write = (file: string, text: string) => writeFileSync(file, redactText(text));
  const openapi = observedOpenApi(contract, { schemasDir: join(options.cwd, 'schemas'), paths: options.paths });
  write(files.openapi, `${JSON.stringify(openapi, null, 2)}\n`);
  write(files.timings, `${JSON.stringify(contract.timings, null, 2)}\n`);
  write(files.page, renderObservedPage(contract, previous && changesSince(previous.contract, contract)));
  writeFileSync(files.chart, trendChart([...earlier, now]));
  if (options.keep) keepContract(historyDir, now, options.historyLimit);
  return files;
}
