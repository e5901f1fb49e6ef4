// Simulated clock: blame is read from each run's results, and its waits need no real time (onSimulatedClock); every
// run of this file in one vitest process (planned-runs.ts), whose Allure results are told apart by their `run` label.
// A failure is blamed on the rule it breaks, and on nothing else: full contract runs against
// simulators with one fault each, read back from the run's own Allure results by category.
// - A refusal that is no broken promise has a category of its own, and no rule is named: a find
//   answered 403 ("Not permitted"), operation 3 served at another path ("Operation not found"),
//   screening that needs a scope of its own ("Not permitted"), the conformance specs' bad bodies to
//   screening included: a refusal of the client is no verdict on its body.
// - A find that echoes the query and answers no person finds nobody: both specs that find a
//   person by its legal id wait for it in vain.
// - A PUT refusing a field every person carries breaks the two rules about that very request
//   (create, first sample), each quoting the refusal; every other test did not reach its rule
//   ("Precondition not met").
// - A broken promise other tests depend on is reported once, by its own spec: with the
//   create-returns-gedi and never-available mutants one rule is named, the rest are preconditions.
// - With the settings the faults call for (CONTRACT_PERSON_PATH, CONTRACT_SCREENING_SCOPE), green.
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { readRun } from '../../support/evidence/run-results.js';
import { newRunId, RUN_ID_VARIABLE } from '../../support/run/config.js';
import { ownReports } from './own-reports.js';
import { failuresIn, plannedRuns } from './planned-runs.js';
import { joinedPattern } from '../patterns.js';

/** A failing wait gives up after this long; the simulator's effects come well before it. */
const FAST = {
  CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
  SIMULATOR_AVAILABILITY_DELAY_MS: '40',
  SIMULATOR_BACKGROUND_RECORDS: '40',
};

interface Case {
  name: string;
  env: Record<string, string>;
  /** The spec files the fault can reach (default: all). */
  specs?: string[];
  /** Tests per category that did not pass (every other category must be empty). */
  categories: Record<string, number | 'some'>;
  /** The rules named as broken, exactly. */
  broken: string[];
  /** A text every failure of these categories carries (the cause and the fix). */
  says?: Record<string, RegExp>;
}

const cases: Case[] = [
  {
    name: 'a find answered 403',
    env: { SIMULATOR_FORBIDDEN_OPERATIONS: 'op4' },
    specs: ['specs/persons'],
    categories: { 'Not permitted': 'some' },
    broken: [],
    says: { 'Not permitted': /op4: POST .* answered 403, .*"onboarding"\): check CONTRACT_MARKET/ },
  },
  {
    name: "operation 3 served at the vendor guides' path",
    env: { SIMULATOR_PERSON_PATH_ELSEWHERE: '1' },
    categories: { 'Operation not found': 'some' },
    broken: [],
    says: {
      'Operation not found': joinedPattern(
        /^Operation not found: op3 .* answered 404 .* while operation 4 finds the person by its legal id .* /,
        /Check CONTRACT_PERSON_PATH/,
      ),
    },
  },
  {
    name: 'screening that needs a scope of its own, without CONTRACT_SCREENING_SCOPE',
    env: { SIMULATOR_SCREENING_SCOPE: 'aml-screening' },
    specs: ['specs/screening', 'specs/http-conformance'],
    categories: { 'Not permitted': 7 },
    broken: [],
    says: { 'Not permitted': /answered 403, .*set CONTRACT_SCREENING_SCOPE/ },
  },
  {
    name: 'the find-echoes-query mutant (a find answers the legal id asked for, and no person)',
    env: { SIMULATOR_MUTANT: 'find-echoes-query' },
    specs: ['specs/persons/create.spec.ts', 'specs/persons/find-by-legal-id.spec.ts'],
    categories: { 'Not consistent within the deadline': 2 },
    broken: ['person.eventually-available', 'person.find-by-legal-id'],
    says: { 'Not consistent within the deadline': /to be found by legal id/ },
  },
  {
    name: 'a PUT that refuses phoneList, a field every generated person carries',
    env: { SIMULATOR_REFUSED_FIELD: 'phoneList' },
    categories: { 'Contract broken': 2, 'Precondition not met': 'some' },
    broken: ['person.create-returns-gedi', 'person.first-sample-accepted'],
    says: {
      'Contract broken': /answered 400 \(it said: .*phoneList: is not accepted by this sandbox/,
      'Precondition not met': joinedPattern(
        /^Precondition not met: the step "Given .*" failed before rule .* answered 400 \(it said: /,
        /.*phoneList.* That step is what rule person\.create-returns-gedi /,
      ),
    },
  },
  {
    name: 'the gedi-missing mutant (PUT answers carry no gedi)',
    env: { SIMULATOR_MUTANT: 'gedi-missing' },
    categories: { 'Contract broken': 1, 'Precondition not met': 'some' },
    broken: ['person.create-returns-gedi'],
  },
  {
    name: 'the never-available mutant (new persons never become readable)',
    env: { SIMULATOR_MUTANT: 'never-available' },
    categories: { 'Not consistent within the deadline': 1, 'Precondition not met': 'some' },
    broken: ['person.eventually-available'],
    says: { 'Precondition not met': /rule person\.eventually-available .* promises; its own spec reports it\.$/ },
  },
  {
    name: 'operation 3 elsewhere and a screening scope, with CONTRACT_PERSON_PATH and CONTRACT_SCREENING_SCOPE set',
    env: {
      SIMULATOR_PERSON_PATH_ELSEWHERE: '1',
      CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons/{gedi}',
      SIMULATOR_SCREENING_SCOPE: 'aml-screening',
      CONTRACT_SCREENING_SCOPE: 'aml-screening',
    },
    categories: {},
    broken: [],
  },
];

/** The spec files under each of `specs`, a file or a folder, as a project's `include` takes them. */
const included = (specs: string[]) => specs.map((spec) => (spec.endsWith('.ts') ? spec : `${spec}/**/*.spec.ts`));

// The Allure results of every run, as `npm run contract` writes them, without the report built from them.
const reports = ownReports({ onTestFinished: (remove) => afterAll(remove) });
const runIds = cases.map((_, index) => newRunId(Date.now(), index));
const runs = plannedRuns(
  cases.map(({ env, specs = ['specs'] }, index) => ({
    name: `blame:${index}`,
    specs: included(specs),
    env: { ...FAST, ...env, [RUN_ID_VARIABLE]: runIds[index]! },
  })),
  { ...reports.env, CONTRACT_REPORTS: '1' },
);

/** Every run's results, each copied into a folder of its own by its `run` label, as readRun reads a run's. */
function splitByRun(): string {
  const all = reports.paths.allureResults;
  const byRun = join(reports.paths.root, 'runs');
  for (const runId of runIds) mkdirSync(join(byRun, runId), { recursive: true });
  for (const file of readdirSync(all).filter((name) => name.endsWith('-result.json'))) {
    const { labels = [] } = JSON.parse(readFileSync(join(all, file), 'utf8')) as {
      labels?: { name: string; value: string }[];
    };
    const runId = labels.find(({ name }) => name === 'run')?.value;
    if (runId && runIds.includes(runId)) cpSync(join(all, file), join(byRun, runId, file));
  }
  return byRun;
}
let byRun: string | undefined;

test.concurrent.for(cases.map((each, index) => ({ ...each, index })))(
  'blames the right line against $name',
  async ({ index, categories, broken, says }) => {
    const files = await runs.filesOf(`blame:${index}`);
    const { summary } = await readRun([join((byRun ??= splitByRun()), runIds[index]!)]);
    const seen = Object.fromEntries(
      summary.byCategory.filter((entry) => entry.tests.length > 0).map((entry) => [entry.name, entry.tests]),
    );
    const failed = failuresIn(files);
    console.log(
      `blame: ${
        Object.entries(seen)
          .map(([name, tests]) => `${name} ${tests.length}`)
          .join(', ') || 'all passed'
      }; ${failed.length} failed`,
    );
    const tests = files.flatMap((file) => file.assertionResults);
    expect(summary.total, `a result for every test of the run:\n${failed.join('\n').slice(-2000)}`).toBe(tests.length);
    expect(Object.keys(seen).sort(), 'the categories failures fell into').toEqual(Object.keys(categories).sort());
    for (const [category, expected] of Object.entries(categories)) {
      if (expected === 'some') expect(seen[category]!.length, category).toBeGreaterThan(1);
      else expect(seen[category]!.length, category).toBe(expected);
    }
    const named = summary.byCategory.flatMap((entry) =>
      entry.tests.flatMap((outcome) => (outcome.category === 'Broken rule' && outcome.rule ? [outcome.rule] : [])),
    );
    expect([...new Set(named)].sort(), 'the rules named as broken').toEqual(broken);
    for (const [category, pattern] of Object.entries(says ?? {})) {
      for (const outcome of seen[category]!) expect(outcome.message, `${category}: ${outcome.name}`).toMatch(pattern);
    }
    expect(failed.length === 0, 'the run passes exactly when nothing failed').toBe(
      Object.keys(categories).length === 0,
    );
  },
);
