// Every check can fail: each simulator mutant is killed by the spec of the rule it breaks, and the
// failure names that rule (support/run/mutant-matrix.ts; `npm run mutants` prints the same matrix),
// in the standard layout and in the vendor's published shapes alike (one vitest process for both).
import { expect, test } from 'vitest';
import { formatMatrix, runMutantMatrix } from '../../support/run/mutant-matrix.js';
import { ownReports } from './own-reports.js';

test('every mutant is killed by the spec of its own rule, in the standard and the vendor layout', async (context) => {
  const verdicts = await runMutantMatrix({ layouts: ['standard', 'vendor'], env: ownReports(context).env });
  console.log(formatMatrix(verdicts));
  expect(verdicts.filter((verdict) => !verdict.killed).map((verdict) => `${verdict.mutant} in the ${verdict.layout} layout (breaks ${verdict.rule})`), 'surviving mutants').toEqual([]);
});
