// Simulated clock: learning reads what the target answers, not how fast (child-runs.ts onSimulatedClock), every run of
// this file in one vitest process, each spec file a run of its own whose journal is its run's (planned-runs.ts
// `eachFileAlone`); but real processes for `npm run learn` itself, a README command, as a user runs it.
// Learning against each simulator layout and honest option proposes the locations and predicates of the layout file
// written by hand from simulator/layouts/ (schemas/layouts/simulator/), so learning is never compared with itself
// (docs/DESIGN.md, "Learning"); run, date and values seen may differ. The options that move no fact (a copy of the
// request in each record, a stated page size) learn the layout's own file. And
// `npm run learn` says first and last that its verdicts are provisional.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readLayoutFile, type LayoutFile } from '../../support/layout/layout-file.js';
import { writeProposal } from '../../support/layout/learning-journal.js';
import { runContract } from './commands.js';
import { ownReports } from './own-reports.js';
import { failuresIn, plannedRuns } from './planned-runs.js';

const LEARNED_SPECS = [
  'specs/persons/deregister.spec.ts',
  'specs/persons/remove.spec.ts',
  'specs/persons/merge.spec.ts',
  'specs/persons/relationship-death.spec.ts',
  'specs/persons/relationship-deregistered.spec.ts',
  'specs/consumers/identification.spec.ts',
  'specs/consumers/subscription-created.spec.ts',
  'specs/persons/find-by-legal-id.spec.ts',
  'specs/screening/person-test-case.spec.ts',
  'specs/screening/company-test-cases.spec.ts',
];
// Five records a page over 12 background records: every list has a second page, so its continuation is learned.
const FAST = {
  SIMULATOR_AVAILABILITY_DELAY_MS: '50',
  CONTRACT_AVAILABILITY_TIMEOUT_MS: '8000',
  SIMULATOR_PAGE_SIZE: '5',
  SIMULATOR_BACKGROUND_RECORDS: '12',
};
const MOVES_NOTHING = {
  SIMULATOR_REQUEST_COPY_IN_RECORDS: '1',
  SIMULATOR_STATED_PAGE_SIZE: '1',
};
const FIND_ECHO = { SIMULATOR_FIND_ECHO: 'searchParameters' };

const handWritten = (name: string) =>
  readLayoutFile(fileURLToPath(new URL(`../../schemas/layouts/simulator/${name}.json`, import.meta.url)));

/** What the check compares: each fact's location and predicate, and the keys a list's pages carry beside it. */
const locations = ({ facts }: LayoutFile) =>
  Object.fromEntries(
    Object.entries(facts).map(([fact, { location, predicate, pageKeys }]) => [
      fact,
      `${location} ${predicate}${pageKeys ? ` beside ${pageKeys.join(', ')}` : ''}`,
    ]),
  );

const LAYOUTS = ['standard', 'alternate', 'vendor'] as const;
/** One learning run: its simulator settings, and the hand-written file it must propose. */
type Learned = { file: string; simulator: Record<string, string> };

const LEARNED: Learned[] = [
  ...LAYOUTS.flatMap((layout): Learned[] => [
    { file: layout, simulator: { SIMULATOR_LAYOUT: layout } },
    { file: layout, simulator: { SIMULATOR_LAYOUT: layout, ...MOVES_NOTHING } },
    // Find answers wrapped as `{ results, searchParameters }`: where the standard layout's persons were already.
    {
      file: layout === 'standard' ? layout : `${layout}-find-echo`,
      simulator: { SIMULATOR_LAYOUT: layout, ...FIND_ECHO },
    },
    ...(['sparse', 'word'] as const).map((form) => ({
      file: `${layout}-status-${form}`,
      simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_STATUS_FORM: form },
    })),
    // One entry per list screened, each with its count: the PEP match lies in the PEP list's own matches.
    {
      file: `${layout}-screening-per-list`,
      simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_SCREENING_PER_LIST: '1' },
    },
    // List entries keyed personGedi and nin: a subscribed person's legal id under `nin`.
    { file: `${layout}-entry-keys`, simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_ENTRY_KEYS: 'personGedi' } },
  ]),
  ...(['standard', 'alternate'] as const).map((layout) => ({
    file: `${layout}-relations-as-sent`,
    simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_RELATIONS_AS_SENT: '1' },
  })),
  {
    file: 'vendor-merges-by-target',
    simulator: {
      SIMULATOR_LAYOUT: 'vendor',
      SIMULATOR_RECORDS_WITHOUT_GEDI: '1',
      SIMULATOR_MERGES_SHOWN_BY_TARGET: '1',
    },
  },
  // Page numbers: each page's records under `content`, and no page names its next one.
  { file: 'standard-paging-page-number', simulator: { SIMULATOR_LAYOUT: 'standard', SIMULATOR_PAGING: 'page-number' } },
  ...(['flat', 'data', 'person', 'attributes'] as const).map((form) => ({
    file: `as-sent-${form}`,
    simulator: { SIMULATOR_STORE_AS_SENT: form },
  })),
];

// Lists that fit on one page at the target's own size: learning asks for pages of two, by the parameter it is told
// (pageSize by default), and says why a continuation stayed unlearned where the target does not take it.
const ONE_PAGE = [
  { layout: 'vendor', settings: {}, continuation: '/nextPageToken continues by pageToken' },
  { layout: 'standard', settings: { CONTRACT_PAGE_SIZE_PARAMETER: 'limit' }, continuation: '/next continues' },
  { layout: 'standard', settings: {}, continuation: undefined },
];

const learnedRuns = LEARNED.map((run, index) => ({ ...run, name: `learning:${index}:${run.file}` }));
const onePageRuns = ONE_PAGE.map((run, index) => ({ ...run, name: `learning-one-page:${index}` }));
const runs = plannedRuns(
  [
    ...learnedRuns.map(({ name, simulator }) => ({
      name,
      specs: LEARNED_SPECS,
      env: { CONTRACT_LEARN: 'always', ...FAST, ...simulator },
    })),
    ...onePageRuns.map(({ name, layout, settings }) => ({
      name,
      specs: ['specs/consumers/identification.spec.ts'],
      env: { CONTRACT_LEARN: 'always', ...FAST, SIMULATOR_PAGE_SIZE: '500', SIMULATOR_LAYOUT: layout, ...settings },
    })),
  ],
  {},
  { eachFileAlone: true },
);

/** What the named run proposes, once its specs have all passed. */
async function proposalOf(name: string): Promise<LayoutFile> {
  expect(failuresIn(await runs.filesOf(name)), `${name}: failed tests`).toEqual([]);
  const { paths } = runs.reportsOf(name);
  return writeProposal(paths.learningJournal, paths.layoutProposal, 'self-check');
}

test.concurrent.for(learnedRuns)('learning with $simulator proposes the locations of $file', async (run) => {
  const proposal = await proposalOf(run.name);
  const expected = handWritten(run.file);
  expect(Object.keys(proposal.unlearned ?? {}), JSON.stringify(proposal.unlearned)).toEqual(
    Object.keys(expected.unlearned ?? {}),
  );
  expect(locations(proposal)).toEqual(locations(expected));
});

test.concurrent.for(onePageRuns)(
  'learning a list of one page with $settings on $layout asks for pages of two',
  async (run) => {
    const proposal = await proposalOf(run.name);
    const learned = locations(proposal)['list.continuation'];
    expect(learned, JSON.stringify(proposal.unlearned)).toBe(run.continuation);
    if (run.continuation === undefined)
      expect(proposal.unlearned?.['list.continuation']).toMatch(
        /asked for pageSize=2, it still showed no next page: set CONTRACT_PAGE_SIZE_PARAMETER/,
      );
  },
);

test('npm run learn says first and last that its verdicts are provisional, and names the file', async (context) => {
  const reports = ownReports(context);
  const into = `${reports.paths.root}/new-target.json`;
  // A README command as a user runs it: real sockets and the simulator global setup starts.
  const { code, output } = await runContract(['--learn', 'specs/persons/deregister.spec.ts'], {
    ...process.env,
    CONTRACT_BASE_URL: '',
    CONTRACT_LAYOUT: into,
    ...FAST,
    ...reports.env,
  });
  expect(code, output).toBe(0);
  const lines = output.trim().split('\n');
  for (const line of [lines[0], lines.at(-1)]) expect(line).toMatch(new RegExp(`provisional; it proposes ${into}`));
  expect(output).toContain('learn: person.deregistered at /deregistered = true (by as-sent)');
  expect(locations(JSON.parse(readFileSync(into, 'utf8')) as LayoutFile)).toEqual({
    'person.deregistered': '/deregistered = true',
    'person.gedi': '/gedi = person.gedi',
    'person.legalId': '/legalId = person.legalId',
  });
});
