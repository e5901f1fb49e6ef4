/**
 * npm run flake [-- --runs N]: the contract specs N times (default 3) against a fresh embedded
 * simulator with jittered availability and 10 % transient faults (429/503 with Retry-After), each
 * run with a new seed. Prints the failed tests of every run and the total: a figure to watch, not a
 * timed test. Exits non-zero when any run failed.
 */
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { runVitestWithResults } from '../support/run/child-runs.js';

// The simulator's default availability delay (250 ms) is already jittered ±50 % per effect; the
// faults are the share the fault-contract run of `npm test` survives.
const SIMULATOR_ENV = { SIMULATOR_FAULT_RATE: '0.1', SIMULATOR_AVAILABILITY_DELAY_MS: '250' };

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`flake: --runs ${values.runs} is invalid: use a whole number of runs, 1 or more.`);
  process.exit(2);
}

let totalFailed = 0;
let failedRuns = 0;
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  const seed = Math.floor(Math.random() * 2 ** 31);
  const { code, output, results } = await runVitestWithResults(['--project', 'contract'], {
    ...process.env,
    CONTRACT_BASE_URL: '',
    CONTRACT_SEED: String(seed),
    ...SIMULATOR_ENV,
  });
  const [passed, failed] = [results?.numPassedTests ?? 0, results?.numFailedTests ?? 0];
  // A run that ended without vitest's tally (a setup failure) counts as one failure.
  const failures = code !== 0 && failed === 0 ? 1 : failed;
  totalFailed += failures;
  if (code !== 0) failedRuns += 1;
  console.log(
    `flake: run ${run}/${runs}: ${failures} failed, ${passed} passed, exit ${code}, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s, CONTRACT_SEED=${seed}`,
  );
  // vitest's "FAIL <file> > <test>" lines name what failed; the details are in a rerun with the seed.
  if (code !== 0)
    console.log(
      stripVTControlCharacters(output)
        .split('\n')
        .filter((line) => /^\s*FAIL\b/.test(line))
        .join('\n'),
    );
}
console.log(`flake: ${totalFailed} failure(s) in ${runs} run(s); ${failedRuns} run(s) not green`);
process.exitCode = failedRuns ? 1 : 0;
