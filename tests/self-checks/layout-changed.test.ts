// Simulated clock: a moved fact is judged by what the answers show, not when; every run of this file in one vitest
// process, each spec file a run of its own (planned-runs.ts).
// A layout file held against a target whose answers moved: each reading of a moved fact fails as Layout changed,
// naming the fact and the location learned, never as a pass and never as a broken rule (docs/DESIGN.md, "Strict
// readings"). In every layout: a status object or flag turned into one word, or a word into an object (its learned
// shape gone), relations
// learned beside the sent ones and now gone, a merge learned as the target's record that now names the target in
// a merge field (its yes found elsewhere), list pages that now hold their records under another key, and a PEP match
// learned in a per-list answer's PEP list, now in one flat list, and a subscribed person's legal id now keyed `nin`.
import { expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { failuresIn, plannedRuns } from './planned-runs.js';

const file = (name: string) => fileURLToPath(new URL(`../../schemas/layouts/simulator/${name}.json`, import.meta.url));
const STATUS_SPECS = ['specs/persons/deregister.spec.ts', 'specs/persons/remove.spec.ts'];
const RELATIVE_SPECS = ['specs/persons/relationship-death.spec.ts', 'specs/persons/relationship-deregistered.spec.ts'];

const CASES: { name: string; layout: string; simulator: Record<string, string>; specs: string[] }[] = [
  // The alternate layout's status is a word already: there it becomes an object listing what is true.
  ...(['standard', 'alternate', 'vendor'] as const).map((layout) => {
    const form = layout === 'alternate' ? 'sparse' : 'word';
    return {
      name: `the ${layout} layout's file, its status now ${form === 'word' ? 'one word' : 'a sparse object'}`,
      layout: file(layout),
      simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_STATUS_FORM: form },
      specs: STATUS_SPECS,
    };
  }),
  ...['standard', 'alternate'].map((layout) => ({
    name: `the ${layout} layout's file learned with relations as sent, now without them`,
    layout: file(`${layout}-relations-as-sent`),
    simulator: { SIMULATOR_LAYOUT: layout },
    specs: RELATIVE_SPECS,
  })),
  // Page numbers put each page's records under `content`: the learned key of the entries is gone.
  ...(['standard', 'alternate', 'vendor'] as const).map((layout) => ({
    name: `the ${layout} layout's file, its list pages now numbered, their records under content`,
    layout: file(layout),
    simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_PAGING: 'page-number' },
    specs: ['specs/consumers/identification.spec.ts'],
  })),
  // The PEP match learned in the PEP list's own entry of a per-list answer, now in one flat list of matches.
  ...(['standard', 'alternate', 'vendor'] as const).map((layout) => ({
    name: `the ${layout} layout's file learned with one entry per list screened, now one list of matches`,
    layout: file(`${layout}-screening-per-list`),
    simulator: { SIMULATOR_LAYOUT: layout },
    specs: ['specs/screening/person-test-case.spec.ts'],
  })),
  // A subscribed person's legal id learned under `legalId`, now keyed `nin`.
  ...(['standard', 'alternate', 'vendor'] as const).map((layout) => ({
    name: `the ${layout} layout's file, its list entries now keyed nin`,
    layout: file(layout),
    simulator: { SIMULATOR_LAYOUT: layout, SIMULATOR_ENTRY_KEYS: 'personGedi' },
    specs: ['specs/consumers/subscription-created.spec.ts'],
  })),
  {
    name: "the vendor's file learned with merges shown by the target, now shown by a merge field",
    layout: file('vendor-merges-by-target'),
    simulator: { SIMULATOR_LAYOUT: 'vendor' },
    specs: ['specs/persons/merge.spec.ts'],
  },
];

/** How a moved fact fails: Layout changed, naming the fact and where it was learned. */
const LAYOUT_CHANGED =
  /^LayoutChangedError: Layout changed: (person|relative|consumers|screening|subscription)\.\w+ was learned at \//;

const runs = plannedRuns(
  CASES.map(({ layout, simulator, specs }, index) => ({
    name: `layout-changed:${index}`,
    specs,
    env: {
      CONTRACT_LAYOUT: layout,
      CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
      SIMULATOR_AVAILABILITY_DELAY_MS: '50',
      // A moved key shows on a list's first page: 40 records of others, not 1,500 made for every run.
      SIMULATOR_BACKGROUND_RECORDS: '40',
      ...simulator,
    },
  })),
  {},
  { eachFileAlone: true },
);

test.concurrent.for(CASES.map((each, index) => ({ ...each, index })))(
  '$name: Layout changed, no broken rule',
  async ({ index, specs }) => {
    const files = await runs.filesOf(`layout-changed:${index}`);
    const failures = files.flatMap((spec) =>
      spec.assertionResults
        .filter((test) => test.status === 'failed')
        .map((test) => (test.failureMessages ?? []).join('\n')),
    );
    // One failure for each transition spec (merge.spec.ts's second test, a refusal, reads no layout and passes).
    expect(failures, failuresIn(files).join('\n')).toHaveLength(specs.length);
    for (const failure of failures) {
      expect(failure).toMatch(LAYOUT_CHANGED);
      expect(failure).not.toMatch(/Broken rule/);
    }
  },
);
