// Simulated clock: every mutant's run and its control share a clock with their simulator (child-runs.ts
// onSimulatedClock), but for the runs that stop in setup, which the matrix runs on real sockets (mutant-matrix.ts).
// Every check can fail: each simulator mutant is killed by the spec of the rule it breaks, in the step
// that exercises the rule, and the failure names that rule (support/run/mutant-verdict.ts; `npm run
// mutants` prints the same matrix), in the standard layout and in the vendor's published shapes alike
// (one vitest process for both). A failed Given, a crash or a bare timeout is no kill: "not judged".
// The merge mutants are killed too where the vendor's records name no gedi and a merge shows only as
// the target's record, whose legal id is then the one evidence of the merge.
// A kill counts only when the same specs pass against the unmutated simulator with the same settings.
import { expect, test } from 'vitest';
import { MUTANT_NAMES, MUTANTS } from '../../simulator/mutants.js';
import { runMutantMatrix } from '../../support/run/mutant-matrix.js';
import { formatMatrix, type Verdict } from '../../support/run/mutant-verdict.js';
import { ownReports } from './own-reports.js';
import { onSimulatedClock } from '../../support/run/child-runs.js';

/** The reports folder of the test whose context is given, and the simulated clock for its runs. */
const simulatedRuns = (context: Parameters<typeof ownReports>[0]) => ({
  ...ownReports(context).env,
  ...onSimulatedClock(),
});

/** The mutants not killed, survivors and those not judged alike, each with why. */
const survivors = (verdicts: Verdict[]): string[] =>
  verdicts
    .filter(({ judgement }) => judgement !== 'killed')
    .map(({ mutant, layout, rule, judgement, reasons }) =>
      [`${mutant} in the ${layout} layout (breaks ${rule}): ${judgement}`, ...reasons].join('; '),
    );

const EVERY_MUTANT = 'every mutant is killed by the spec of its own rule, in the standard and the vendor layout';

test.concurrent(EVERY_MUTANT, async (context) => {
  const verdicts = await runMutantMatrix({ layouts: ['standard', 'vendor'], env: simulatedRuns(context) });
  console.log(formatMatrix(verdicts));
  expect(survivors(verdicts), 'surviving mutants').toEqual([]);
});

const NO_GEDI = { SIMULATOR_RECORDS_WITHOUT_GEDI: '1', SIMULATOR_MERGES_SHOWN_BY_TARGET: '1' };

test.concurrent(
  'every merge mutant is killed in the vendor layout with no gedi, merges shown by the target',
  async (context) => {
    const mutants = MUTANT_NAMES.filter((name) => MUTANTS[name].rule.startsWith('transition.merge'));
    const env = { ...simulatedRuns(context), ...NO_GEDI };
    const verdicts = await runMutantMatrix({ mutants, layouts: ['vendor'], env });
    console.log(formatMatrix(verdicts));
    expect(mutants, 'the merge mutants').not.toEqual([]);
    expect(survivors(verdicts), 'surviving merge mutants').toEqual([]);
  },
);

test.concurrent('counts no kill where the specs fail without the mutant too, same settings', async (context) => {
  // Effects later than the matrix's 4 s deadline (20 s, jittered by half at most): the timeouts that
  // never-available causes come as well from a simulator without it, as from a machine too loaded.
  const slow = { ...simulatedRuns(context), SIMULATOR_AVAILABILITY_DELAY_MS: '20000' };
  const [verdict] = await runMutantMatrix({ mutants: ['never-available'], env: slow });
  console.log(formatMatrix([verdict!]));
  expect(verdict!.judgement, 'never-available, its control run failed').toBe('not judged');
  const timedOut = expect.stringMatching(/^specs\/persons\/create\.spec\.ts \(NotConsistentError: /);
  expect(verdict!.controlFailed, 'the control run, without the mutant').toEqual([timedOut]);
});

// The shapes a vocabulary of key names misread, each read strict at its own layout file: a status that lists only
// what is true beside a copy of the last write's flags, relations shown as sent beside the computed ones, and one
// screening entry per list screened, each with its count (a PEP list of none read as a PEP hit).
const TRANSITIONS = MUTANT_NAMES.filter((name) => MUTANTS[name].rule.startsWith('transition.'));
const RELATIVES = TRANSITIONS.filter((name) => MUTANTS[name].rule.startsWith('transition.relationship-'));
const PERSON_SCREENING = MUTANT_NAMES.filter((name) => MUTANTS[name].rule === 'screening.person-test-case');

test.concurrent.for([
  {
    shape: 'a sparse status beside a copy of the request',
    mutants: TRANSITIONS,
    layouts: ['standard', 'alternate', 'vendor'] as const,
    env: { SIMULATOR_STATUS_FORM: 'sparse', SIMULATOR_REQUEST_COPY_IN_RECORDS: '1' },
  },
  {
    shape: 'relations as sent beside the computed ones',
    mutants: RELATIVES,
    layouts: ['standard', 'alternate'] as const,
    env: { SIMULATOR_RELATIONS_AS_SENT: '1' },
  },
  {
    shape: 'one screening entry per list screened, with its count',
    mutants: PERSON_SCREENING,
    layouts: ['standard', 'alternate', 'vendor'] as const,
    env: { SIMULATOR_SCREENING_PER_LIST: '1' },
  },
])('every mutant of its facts is killed with $shape, in every layout', async ({ mutants, layouts, env }, context) => {
  const verdicts = await runMutantMatrix({
    mutants,
    layouts: [...layouts],
    env: { ...simulatedRuns(context), ...env },
  });
  console.log(formatMatrix(verdicts));
  expect(mutants, 'the mutants').not.toEqual([]);
  expect(survivors(verdicts), 'surviving mutants').toEqual([]);
});

// A find that shows only the query, or the query beside wrong results, is a broken find rule, never a layout that
// moved: strict, the learned container holds no person, and an echo beside it is no evidence either way.
const FIND_MUTANTS = ['find-echoes-query', 'find-repeats-query-beside-results', 'gedi-missing'] as const;

test.concurrent('the find and gedi mutants stay broken rules beside an echo under an unlisted key', async (context) => {
  const env = { ...simulatedRuns(context), SIMULATOR_FIND_ECHO: 'searchParameters' };
  const verdicts = await runMutantMatrix({
    mutants: [...FIND_MUTANTS],
    layouts: ['standard', 'alternate', 'vendor'],
    env,
  });
  console.log(formatMatrix(verdicts));
  expect(verdicts, 'three mutants in three layouts').toHaveLength(9);
  expect(survivors(verdicts), 'find and gedi mutants not killed by their own rule').toEqual([]);
});
