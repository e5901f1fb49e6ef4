// Owns writing a run's observed contract: reports/observed/{openapi.json, timings.json,
// observed-contract.md, time-to-consistency.svg}, and keeping it in the history for the next run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redactText } from '../../transport/redact.js';
import type { OperationPaths } from '../../run/config.js';
import { OBSERVED_DIR, OBSERVED_HISTORY_DIR } from '../../run/paths.js';
import { changesSince, keepContract, keptContracts, trendChart } from './history.js';
import { buildContract, readObservationLines } from './model.js';
import { observedOpenApi } from './openapi.js';
import { renderObservedPage } from './page.js';

export interface WriteOptions {
  cwd: string;
  /** Where each operation was called (the configured paths). */
  paths: OperationPaths;
  /** Keep this run in the history (off for the suite's self-check runs). */
  keep: boolean;
  historyLimit: number;
}

export function writeObservedContract({ cwd, paths, keep, historyLimit }: WriteOptions): void {
  const dir = resolve(cwd, OBSERVED_DIR);
  const historyDir = resolve(cwd, OBSERVED_HISTORY_DIR);
  mkdirSync(dir, { recursive: true });
  const contract = buildContract(readObservationLines(dir));
  const earlier = keptContracts(historyDir);
  const previous = earlier.at(-1);
  const now = { at: new Date().toISOString(), contract };
  // The recorded bodies were redacted when the client published them; every document written here
  // passes the redaction point once more as text (registered secrets, Basic and Bearer credentials).
  const write = (name: string, text: string) => writeFileSync(join(dir, name), redactText(text));
  const openapi = observedOpenApi(contract, { schemasDir: join(cwd, 'schemas'), paths });
  write('openapi.json', `${JSON.stringify(openapi, null, 2)}\n`);
  write('timings.json', `${JSON.stringify(contract.timings, null, 2)}\n`);
  write('observed-contract.md', renderObservedPage(contract, previous && changesSince(previous.contract, contract)));
  writeFileSync(join(dir, 'time-to-consistency.svg'), trendChart([...earlier, now]));
  if (keep) keepContract(historyDir, now, historyLimit);
}
