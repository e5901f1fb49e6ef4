// Every check can fail: each simulator mutant is killed by the spec of the rule it breaks, and the
// failure names that rule (support/run/mutant-matrix.ts; `npm run mutants` prints the same matrix),
// in the standard layout and in the vendor's published shapes alike (one vitest process for both).
// A kill counts only when the same specs pass against the unmutated simulator with the same settings.
import { expect, test } from 'vitest';
import { formatMatrix, runMutantMatrix } from '../../support/run/mutant-matrix.js';
import { ownReports } from './own-reports.js';

const EVERY_MUTANT = 'every mutant is killed by the spec of its own rule, in the standard and the vendor layout';

test.concurrent(EVERY_MUTANT, async (context) => {
  const verdicts = await runMutantMatrix({ layouts: ['standard', 'vendor'], env: ownReports(context).env });
  console.log(formatMatrix(verdicts));
  expect(verdicts.filter((verdict) => !verdict.killed).map((verdict) => `${verdict.mutant} in the ${verdict.layout} layout (breaks ${verdict.rule})`), 'surviving mutants').toEqual([]);
});

test.concurrent('counts no kill where the specs fail without the mutant too, same settings', async (context) => {
  // Effects later than the matrix's 4 s deadline (20 s, jittered by half at most): the timeouts that
  // never-available causes come as well from a simulator without it, as from a machine too loaded.
  const slow = { ...ownReports(context).env, SIMULATOR_AVAILABILITY_DELAY_MS: '20000' };
  const [verdict] = await runMutantMatrix({ mutants: ['never-available'], env: slow });
  console.log(formatMatrix([verdict!]));
  expect(verdict!.killed, 'never-available counted as killed').toBe(false);
  const timedOut = expect.stringMatching(/^specs\/persons\/create\.spec\.ts \(NotConsistentError: /);
  expect(verdict!.controlFailed, 'the control run, without the mutant').toEqual([timedOut]);
});
