// Simulated clock: each run's specs and simulator share one clock in its worker, every run of this file in one vitest
// process (planned-runs.ts).
// The contract suite itself, as a user runs it, against fresh embedded simulators: the three
// response layouts (the vendor's published shapes among them, also with no gedi in its records),
// honest answers a generous reading could mistake (bodies stored as sent, copies of the request,
// placeholders, entries keyed differently), the strict mode that requires the four booleans, and
// a run through transient faults must keep every documented promise. Each run also shows its
// worker running every spec file at once (support/run/concurrent-files.js, which leans on how
// vitest calls its runner): should a vitest upgrade make it run them one after another, the suite
// would still pass, only several times slower, so this says so: files were in flight at the same
// time, which one after another never are (an order, not a duration).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { catalogue } from '../../support/run/catalogue.js';
import type { SimulatorReport } from '../../support/run/child-runs.js';
import { SIMULATOR_REPORT_VARIABLE } from '../../support/run/global-setup.js';
import type { FileResult } from '../../support/run/suite-reporter.js';
import { failuresIn, plannedRuns } from './planned-runs.js';

// Five records a page, so every list is read across several pages in each paging convention.
const SMALL_PAGES = { SIMULATOR_PAGE_SIZE: '5', SIMULATOR_BACKGROUND_RECORDS: '40' };
const NO_GEDI = { SIMULATOR_RECORDS_WITHOUT_GEDI: '1', SIMULATOR_MERGES_SHOWN_BY_TARGET: '1' };

const LAYOUTS: { name: string; simulator: Record<string, string> }[] = [
  {
    name: 'the standard layout, page-number paging without links',
    simulator: { SIMULATOR_LAYOUT: 'standard', SIMULATOR_PAGING: 'page-number', ...SMALL_PAGES },
  },
  {
    name: 'the alternate layout, offset paging with a total',
    simulator: { SIMULATOR_LAYOUT: 'alternate', SIMULATOR_PAGING: 'offset', ...SMALL_PAGES },
  },
  {
    name: 'the alternate layout, Link header paging, one id space for all clients, the four booleans required',
    simulator: {
      SIMULATOR_LAYOUT: 'alternate',
      SIMULATOR_ID_SPACE: 'shared',
      SIMULATOR_STRICT_BOOLEANS: '1',
      ...SMALL_PAGES,
    },
  },
  {
    name: "the vendor's published shapes, nextPageToken paging",
    simulator: { SIMULATOR_LAYOUT: 'vendor', ...SMALL_PAGES },
  },
  // v3 dropped `person.gedi`: records that name no gedi at all, and a merge shown by the target's record.
  {
    name: "the vendor's shapes with no gedi in records and merges shown by the target's record",
    simulator: { SIMULATOR_LAYOUT: 'vendor', ...NO_GEDI, ...SMALL_PAGES },
  },
  // A server that stores each body as sent and answers it from operation 3, wrapped under `person`:
  // the documented marks come back exactly as the client sent them, and count.
  {
    name: 'the standard layout storing person bodies as sent, under person',
    simulator: { SIMULATOR_LAYOUT: 'standard', SIMULATOR_STORE_AS_SENT: 'person', ...SMALL_PAGES },
  },
  // Three honest shapes in one run, to keep the cost of a run each down (their concerns do not meet: the records'
  // content, operation 3 before availability, the list entries' keys): a copy of the request in every record, a
  // placeholder before a person is available, entries keyed personGedi and nin.
  {
    name: "the vendor's shapes with a copy of the request in records, placeholders, entries keyed personGedi",
    simulator: {
      SIMULATOR_LAYOUT: 'vendor',
      SIMULATOR_REQUEST_COPY_IN_RECORDS: '1',
      SIMULATOR_PLACEHOLDERS_BEFORE_AVAILABLE: '1',
      SIMULATOR_ENTRY_KEYS: 'personGedi',
      ...SMALL_PAGES,
    },
  },
  // The shapes a vocabulary of key names misread, each read strict at its own layout file's locations: a status that
  // lists only what is true beside a copy of the request, relations shown as sent beside the computed ones, a status
  // that is one word.
  {
    name: 'the standard layout with a sparse status beside a copy of the request',
    simulator: {
      SIMULATOR_LAYOUT: 'standard',
      SIMULATOR_STATUS_FORM: 'sparse',
      SIMULATOR_REQUEST_COPY_IN_RECORDS: '1',
      ...SMALL_PAGES,
    },
  },
  {
    name: 'the alternate layout with relations as sent beside the computed ones',
    simulator: { SIMULATOR_LAYOUT: 'alternate', SIMULATOR_RELATIONS_AS_SENT: '1', ...SMALL_PAGES },
  },
  {
    name: "the vendor's shapes with a one-word status",
    simulator: { SIMULATOR_LAYOUT: 'vendor', SIMULATOR_STATUS_FORM: 'word', ...SMALL_PAGES },
  },
  // Per-list screening counts, a find answer wrapped beside an echo under a key no vocabulary lists, and every page
  // stating its size, so a last page holds exactly its pageSize with no continuation: read at the learned container
  // and continuation.
  {
    name: "the vendor's shapes with per-list screening, a find echo under searchParameters, stated page sizes",
    simulator: {
      SIMULATOR_LAYOUT: 'vendor',
      SIMULATOR_SCREENING_PER_LIST: '1',
      SIMULATOR_FIND_ECHO: 'searchParameters',
      SIMULATOR_STATED_PAGE_SIZE: '1',
      ...SMALL_PAGES,
    },
  },
  // Every fault pauses every test of its client for its Retry-After (1 s), and the pace learns the
  // lower rate those pauses leave: on a loaded machine a request queued behind the rest once waited
  // past the 30 s deadline, and a test once ran out of its 120 s, failing, rightly, as "Target
  // throttled". What this run checks is that faults break no promise, so its requests and tests get
  // longer.
  {
    name: '10 % transient faults (429/503 with Retry-After), next-URL paging',
    simulator: {
      SIMULATOR_FAULT_RATE: '0.1',
      CONTRACT_AVAILABILITY_TIMEOUT_MS: '60000',
      CONTRACT_TEST_TIMEOUT_MS: '240000',
      ...SMALL_PAGES,
    },
  },
  // A shared sandbox's rate limit: the run paces every test to what the target accepts.
  {
    name: 'a rate limit of 10 requests a second per client (429 with Retry-After beyond it)',
    simulator: { SIMULATOR_RATE_LIMIT: '10' },
  },
];

// A seed replays its run on the simulated clock: faults are drawn per request, ids and the retries' jitter follow
// the seed, and the worker's files begin in one order, so two runs with one seed through 10 % faults send the same
// requests, meet the same faults and reach the same verdicts, however loaded the machine.
const scratch = mkdtempSync(join(tmpdir(), 'replay-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const REPLAYS = ['first', 'again'].map((name) => ({ name: `replay:${name}`, served: join(scratch, `${name}.json`) }));

const runs = plannedRuns([
  ...LAYOUTS.map(({ simulator }, index) => ({
    name: `contract:${index}`,
    specs: ['specs/**/*.spec.ts'],
    env: simulator,
  })),
  ...REPLAYS.map(({ name, served }) => ({
    name,
    specs: ['specs/**/*.spec.ts'],
    env: {
      [SIMULATOR_REPORT_VARIABLE]: served,
      SIMULATOR_SEED: '42',
      SIMULATOR_FAULT_RATE: '0.1',
      CONTRACT_AVAILABILITY_TIMEOUT_MS: '60000',
      ...SMALL_PAGES,
    },
  })),
]);

test.concurrent.for(LAYOUTS.map((each, index) => ({ ...each, index })))(
  'the contract specs pass against the simulator with $name',
  async ({ index }) => {
    const files = await runs.filesOf(`contract:${index}`);
    const tests = files.flatMap((file) => file.assertionResults);
    console.log(
      `contract run: ${tests.filter((test) => test.status === 'passed').length} passed, ` +
        `${tests.filter((test) => test.status === 'failed').length} failed`,
    );
    expect(failuresIn(files)).toEqual([]);
    expect(tests.filter((test) => test.status === 'passed').length, 'every catalogued rule ran').toBeGreaterThanOrEqual(
      catalogue.rules.length,
    );
    expect(mostFilesInFlight(files), 'spec files running at the same moment').toBeGreaterThan(1);
    const { code, output } = await runs.finished();
    expect(code, `every run passed, and nothing failed outside a test:\n${output.slice(-3000)}`).toBe(0);
  },
);

test('a seed replays its run through faults: the same requests, faults and verdicts', async () => {
  const [first, again] = await Promise.all(
    REPLAYS.map(async ({ name, served }) => {
      const files = await runs.filesOf(name);
      const verdicts = files.flatMap((file) =>
        file.assertionResults.map((test) => `${file.name} > ${test.title}: ${test.status}`),
      );
      return { served: JSON.parse(readFileSync(served, 'utf8')) as SimulatorReport, verdicts: verdicts.sort() };
    }),
  );
  console.log(
    `replay: ${Object.values(first!.served.counts).reduce((sum, count) => sum + count, 0)} requests, ` +
      `${first!.served.faultsInjected} faults, ${first!.verdicts.length} verdicts, in each run`,
  );
  expect(first!.served.faultsInjected, 'faults met').toBeGreaterThan(0);
  expect(again!.served, 'what the simulator served, request by route, faults and tokens').toEqual(first!.served);
  expect(again!.verdicts, 'every test verdict').toEqual(first!.verdicts);
});

/** The most files that had started and not yet ended at any one moment. */
function mostFilesInFlight(files: FileResult[]): number {
  const events = files.flatMap((file) => [
    { at: file.startTime ?? 0, change: 1 },
    { at: file.endTime ?? 0, change: -1 },
  ]);
  // At equal times an end comes first: a file that ends as another starts was not beside it.
  events.sort((a, b) => a.at - b.at || a.change - b.change);
  let inFlight = 0;
  let most = 0;
  for (const { change } of events) most = Math.max(most, (inFlight += change));
  return most;
}
