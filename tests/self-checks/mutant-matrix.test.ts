// Simulated clock: every mutant's run and its control share a clock with their simulator (child-runs.ts
// onSimulatedClock), but for the runs that stop in setup, which the matrix runs on real sockets (mutant-matrix.ts).
// Every matrix of this file runs in one vitest process, started by the first test that asks.
// Every check can fail: each simulator mutant is killed by the spec of the rule it breaks, in the step
// that exercises the rule, and the failure names that rule (support/run/mutant-verdict.ts; `npm run
// mutants` prints the same matrix), in the standard layout and in the vendor's published shapes alike
// (one vitest process for both). A failed Given, a crash or a bare timeout is no kill: "not judged".
// The merge mutants are killed too where the vendor's records name no gedi and a merge shows only as
// the target's record, whose legal id is then the one evidence of the merge.
// A kill counts only when the same specs pass against the unmutated simulator with the same settings.
import { afterAll, expect, test } from 'vitest';
import { MUTANT_NAMES, MUTANTS } from '../../simulator/mutants.js';
import { runMutantMatrices, type MatrixOptions } from '../../support/run/mutant-matrix.js';
import { formatMatrix, type Verdict } from '../../support/run/mutant-verdict.js';
import { ownReports } from './own-reports.js';
import { onSimulatedClock } from '../../support/run/child-runs.js';

/** The mutants not killed, survivors and those not judged alike, each with why. */
const survivors = (verdicts: Verdict[]): string[] =>
  verdicts
    .filter(({ judgement }) => judgement !== 'killed')
    .map(({ mutant, layout, rule, judgement, reasons }) =>
      [`${mutant} in the ${layout} layout (breaks ${rule}): ${judgement}`, ...reasons].join('; '),
    );

const NO_GEDI = { SIMULATOR_RECORDS_WITHOUT_GEDI: '1', SIMULATOR_MERGES_SHOWN_BY_TARGET: '1' };
const MERGES = MUTANT_NAMES.filter((name) => MUTANTS[name].rule.startsWith('transition.merge'));

// The shapes a vocabulary of key names misread, each read strict at its own layout file: a status that lists only
// what is true beside a copy of the last write's flags, relations shown as sent beside the computed ones, and one
// screening entry per list screened, each with its count (a PEP list of none read as a PEP hit).
const TRANSITIONS = MUTANT_NAMES.filter((name) => MUTANTS[name].rule.startsWith('transition.'));
const RELATIVES = TRANSITIONS.filter((name) => MUTANTS[name].rule.startsWith('transition.relationship-'));
const PERSON_SCREENING = MUTANT_NAMES.filter((name) => MUTANTS[name].rule === 'screening.person-test-case');
const SHAPES = [
  {
    shape: 'a sparse status beside a copy of the request',
    mutants: TRANSITIONS,
    layouts: ['standard', 'alternate', 'vendor'],
    env: { SIMULATOR_STATUS_FORM: 'sparse', SIMULATOR_REQUEST_COPY_IN_RECORDS: '1' },
  },
  {
    shape: 'relations as sent beside the computed ones',
    mutants: RELATIVES,
    layouts: ['standard', 'alternate'],
    env: { SIMULATOR_RELATIONS_AS_SENT: '1' },
  },
  {
    shape: 'one screening entry per list screened, with its count',
    mutants: PERSON_SCREENING,
    layouts: ['standard', 'alternate', 'vendor'],
    env: { SIMULATOR_SCREENING_PER_LIST: '1' },
  },
] satisfies (MatrixOptions & { shape: string })[];

// A find that shows only the query, or the query beside wrong results, is a broken find rule, never a layout that
// moved: strict, the learned container holds no person, and an echo beside it is no evidence either way.
const FIND_MUTANTS = ['find-echoes-query', 'find-repeats-query-beside-results', 'gedi-missing'] as const;

const MATRICES = {
  every: { layouts: ['standard', 'vendor'] },
  merges: { mutants: MERGES, layouts: ['vendor'], env: NO_GEDI },
  // Effects later than the matrix's 4 s deadline (20 s, jittered by half at most): the timeouts that
  // never-available causes come as well from a simulator without it, as from a machine too loaded.
  slow: { mutants: ['never-available'], env: { SIMULATOR_AVAILABILITY_DELAY_MS: '20000' } },
  ...Object.fromEntries(SHAPES.map(({ shape, ...matrix }) => [shape, matrix])),
  find: {
    mutants: [...FIND_MUTANTS],
    layouts: ['standard', 'alternate', 'vendor'],
    env: { SIMULATOR_FIND_ECHO: 'searchParameters' },
  },
} satisfies Record<string, MatrixOptions>;

const reports = ownReports({ onTestFinished: (remove) => afterAll(remove) });
let started: Promise<Verdict[][]> | undefined;
/** The named matrix's verdicts, once every matrix has run. */
async function verdictsOf(name: string): Promise<Verdict[]> {
  const names = Object.keys(MATRICES);
  started ??= runMutantMatrices(Object.values(MATRICES), { env: { ...reports.env, ...onSimulatedClock() } });
  const verdicts = (await started)[names.indexOf(name)]!;
  console.log(formatMatrix(verdicts));
  return verdicts;
}

test.concurrent(
  'every mutant is killed by the spec of its own rule, in the standard and the vendor layout',
  async () => {
    expect(survivors(await verdictsOf('every')), 'surviving mutants').toEqual([]);
  },
);

test.concurrent(
  'every merge mutant is killed in the vendor layout with no gedi, merges shown by the target',
  async () => {
    expect(MERGES, 'the merge mutants').not.toEqual([]);
    expect(survivors(await verdictsOf('merges')), 'surviving merge mutants').toEqual([]);
  },
);

test.concurrent('counts no kill where the specs fail without the mutant too, same settings', async () => {
  const [verdict] = await verdictsOf('slow');
  expect(verdict!.judgement, 'never-available, its control run failed').toBe('not judged');
  const timedOut = expect.stringMatching(/^specs\/persons\/create\.spec\.ts \(NotConsistentError: /);
  expect(verdict!.controlFailed, 'the control run, without the mutant').toEqual([timedOut]);
});

test.concurrent.for(SHAPES)(
  'every mutant of its facts is killed with $shape, in every layout',
  async ({ shape, mutants }) => {
    expect(mutants, 'the mutants').not.toEqual([]);
    expect(survivors(await verdictsOf(shape)), 'surviving mutants').toEqual([]);
  },
);

test.concurrent('the find and gedi mutants stay broken rules beside an echo under an unlisted key', async () => {
  const verdicts = await verdictsOf('find');
  expect(verdicts, 'three mutants in three layouts').toHaveLength(9);
  expect(survivors(verdicts), 'find and gedi mutants not killed by their own rule').toEqual([]);
});
