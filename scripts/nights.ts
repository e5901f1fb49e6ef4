/**
 * Nights against one sandbox (`npm run nights [-- --nights=N] [-- --seed=S]`): the suite run N times
 * (default 2) against one simulator shaped as the vendor's pages describe the sandbox, which keeps
 * every record from night to night as a sandbox does (consumers cannot be deleted), each night
 * starting from what the night before kept (the learned times and list pages), as the nightly does.
 * Per night it prints the requests, the list pages among them, the answers throttled and faulted,
 * the wall time and the tests passed. Figures only, never a timed test (docs/MEASUREMENTS.md,
 * 26 Nov, fourth session).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../simulator/listen.js';
import type { SimulatorOptions } from '../simulator/options.js';
import { runVitestWithResults } from '../support/run/child-runs.js';
import { simulatorAsRemoteTarget, simulatorControl, type SimulatorRequests } from '../support/run/simulator-target.js';
import { LEARNED_TIMES_VARIABLE } from '../support/readings/learned-times.js';

/** The vendor's shapes, paths, scopes and paging, a sandbox with history, faults and a rate limit. */
const VENDOR_SANDBOX: SimulatorOptions = {
  layout: 'vendor',
  paging: 'page-token',
  strictBooleans: true,
  idSpace: 'shared',
  personPathElsewhere: true,
  screeningScope: 'aml',
  backgroundRecords: 300,
  faultRate: 0.03,
  tokenTtlSeconds: 20,
  availabilityDelayMs: 3_000,
  latencyMs: 80,
  rateLimitPerSecond: 5,
};

/** The requests served so far, or only the list pages (operations 6 and 7) among them. */
function sent(report: SimulatorRequests, listPages = false): number {
  return Object.entries(report.counts)
    .filter(([route]) => !listPages || /^GET .*\/(consumers|subscriptions\/persons)$/.test(route))
    .reduce((sum, [, count]) => sum + count, 0);
}

function option(name: string, fallback: number): number {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const value = given === undefined ? fallback : Number(given);
  if (!Number.isInteger(value) || value < 1) throw new Error(`nights: --${name}=${given} is not a whole number of 1 or more`);
  return value;
}

async function main(): Promise<void> {
  const nights = option('nights', 2);
  const seed = option('seed', 7);
  const simulator = await startSimulator({ ...VENDOR_SANDBOX, control: true, seed });
  const kept = mkdtempSync(join(tmpdir(), 'nights-'));
  const counts = () => simulatorControl<SimulatorRequests>(simulator, 'GET', 'requests');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...simulatorAsRemoteTarget(simulator),
    CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons/{gedi}',
    CONTRACT_SCREENING_SCOPE: 'aml',
    [LEARNED_TIMES_VARIABLE]: join(kept, 'learned-times.json'),
  };
  console.log(`nights: ${nights} against one simulator (vendor layout, ten a page, 300 background records, 3 % faults, 3 s delay, 5 requests a second), seed ${seed}`);
  console.log('| night | requests | list pages | answered 429 | faults | wall (s) | passed |\n|---|---|---|---|---|---|---|');
  try {
    for (let night = 1; night <= nights; night++) {
      const before = await counts();
      const started = Date.now();
      const run = await runVitestWithResults(['--project', 'contract'], { ...env, CONTRACT_SEED: String(seed * 100 + night) });
      const after = await counts();
      const results = run.results;
      const passed = results ? `${results.numPassedTests} of ${results.numPassedTests + results.numFailedTests + results.numPendingTests}` : `none (exit ${run.code})`;
      console.log(`| ${night} | ${sent(after) - sent(before)} | ${sent(after, true) - sent(before, true)} | ${after.throttled - before.throttled} | ${after.faultsInjected - before.faultsInjected} | ${Math.round((Date.now() - started) / 1000)} | ${passed} |`);
    }
  } finally {
    await simulator.close();
    rmSync(kept, { recursive: true, force: true });
  }
}

await main();
