// The mutant matrix's verdict on synthetic results, each failure as the reporter writes it: the verdict's fields
// (category, rule, step, evidence) beside the message the `rule(id).test` wrapper words for people.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MutantName } from '../../simulator/mutants.js';
import { brokenRuleMessage } from '../../support/evidence/failures.js';
import type { Failure, FileResult } from '../../support/run/suite-reporter.js';
import { formatMatrix, judge, type Outcome } from '../../support/run/mutant-verdict.js';

const MERGE = 'merges a person into an existing person named by merged.gedi';
const UNKNOWN = 'rejects a merge into a gedi that does not exist';
const ISOLATION = "never shows one client's consumers or subscriptions to another client";
const FIND = 'finds the person matching the legal id, and no person with another legal id';
const CHECKS = [
  { rule: 'person.find-by-legal-id', file: 'specs/persons/find-by-legal-id.spec.ts', title: FIND },
  { rule: 'transition.merge', file: 'specs/persons/merge.spec.ts', title: MERGE },
  { rule: 'transition.merge-unknown-rejected', file: 'specs/persons/merge.spec.ts', title: UNKNOWN },
  { rule: 'consumer.isolation', file: 'specs/consumers/isolation.spec.ts', title: ISOLATION },
];

/** One spec file's results as the matrix's reporter writes them, each test failing with its messages. */
function fileOf(file: string, tests: Record<string, Failure[]>): FileResult {
  return {
    name: join(process.cwd(), file),
    assertionResults: Object.entries(tests).map(([title, failures]) => ({
      title,
      status: failures.length > 0 ? 'failed' : 'passed',
      failureMessages: failures.map(
        ({ name, message }) => `${name}: ${message}\n    at specs/persons/merge.spec.ts:27:5`,
      ),
      failures,
    })),
  };
}

const merge = (tests: Record<string, Failure[]>): Outcome => ({
  files: [fileOf('specs/persons/merge.spec.ts', { [MERGE]: [], [UNKNOWN]: [], ...tests })],
  output: '',
});
const isolation = (failures: Failure[]): Outcome => ({
  files: [fileOf('specs/consumers/isolation.spec.ts', { [ISOLATION]: failures })],
  output: '',
});

/** A failure as the reporter writes it: the error's name, its message, and its verdict's fields if it has any. */
const failure = (name: string, message: string, verdict: Partial<Failure> = {}): Failure => ({
  name,
  message,
  ...verdict,
});
/** `step` as the message words it (`Then "<title>"`); the field holds it as `Then <title>`. */
const broken = (rule: string, step: string, detail: string, name = 'AssertionError') =>
  failure(name, brokenRuleMessage(rule, `${step}: ${detail}`), {
    category: 'Broken rule',
    rule,
    step: step.replace(/^(\w+) "(.*)"$/, '$1 $2'),
    evidence: detail,
  });

const REFUSED = broken('transition.merge', 'When "the client PUTs the second person"', 'PUT answered 422');
const NOT_MERGED = broken(
  'transition.merge',
  'Then "the second person is eventually shown merged into the first"',
  'Not shown within 4 s: person G to be merged into T',
  'NotConsistentError',
);
const GIVEN = failure(
  'PreconditionError',
  'Precondition not met: the step "Given two available persons" failed before rule transition.merge could be ' +
    'checked: Not shown within 4 s',
  {
    category: 'Precondition not met',
    rule: 'transition.merge',
    step: 'Given two available persons',
    evidence: 'Not shown within 4 s',
  },
);
const INCOMPLETE =
  'List could not be read completely: /consumer-intelligence/v3/consumers after 1 page(s): page 2 answered 500';

const verdictOf = (mutant: MutantName, outcome: Outcome, controlFailed: string[] = []) =>
  judge({ mutant, layout: 'standard' }, outcome, CHECKS, true, controlFailed);

describe('the verdict on a mutant', () => {
  it('is a kill when its own test fails for its rule in the step that exercises it', () => {
    expect(verdictOf('merge-rejected', merge({ [MERGE]: [REFUSED] }))).toMatchObject({
      judgement: 'killed',
      reasons: [],
    });
    expect(verdictOf('merge-ignored', merge({ [MERGE]: [NOT_MERGED] })).judgement).toBe('killed');
  });

  it('is no kill when its rule breaks in another step than the one that exercises it', () => {
    expect(verdictOf('merge-rejected', merge({ [MERGE]: [NOT_MERGED] }))).toMatchObject({
      judgement: 'survived',
      reasons: ['its rule broke in the Then, not in the When'],
    });
    const unstepped = failure('AssertionError', brokenRuleMessage('transition.merge', 'PUT answered 422'), {
      category: 'Broken rule',
      rule: 'transition.merge',
      evidence: 'PUT answered 422',
    });
    expect(verdictOf('merge-rejected', merge({ [MERGE]: [unstepped] })).reasons).toEqual([
      'its rule broke outside any step, not in the When',
    ]);
  });

  it("takes the step from the mutant's layout where the layout's answer moves it", () => {
    // A find answered as one object shows the added person in place of the match: the When's wait for it fails.
    const notFound = broken('person.find-by-legal-id', 'When "the client finds each"', 'Not shown within 4 s', 'E');
    const outcome = { files: [fileOf('specs/persons/find-by-legal-id.spec.ts', { [FIND]: [notFound] })], output: '' };
    const inLayout = (layout: 'standard' | 'vendor') =>
      judge({ mutant: 'find-adds-other-persons', layout }, outcome, CHECKS, true, []).judgement;
    expect([inLayout('vendor'), inLayout('standard')]).toEqual(['killed', 'survived']);
  });

  it('is no kill when only a test of another rule fails, and says that its own passed', () => {
    const other = broken('transition.merge-unknown-rejected', 'Then "the PUT is rejected"', 'answered 200');
    expect(verdictOf('merge-ignored', merge({ [UNKNOWN]: [other] }))).toMatchObject({
      judgement: 'survived',
      reasons: ['no test of its rule failed'],
      misattributed: [`${UNKNOWN} (rule transition.merge-unknown-rejected) named transition.merge-unknown-rejected`],
    });
  });

  it('is no kill when a failure blames a rule its test does not check', () => {
    const blamed = broken('transition.merge', 'Then "the PUT is rejected"', 'answered 200');
    expect(verdictOf('merge-ignored', merge({ [MERGE]: [NOT_MERGED], [UNKNOWN]: [blamed] }))).toMatchObject({
      judgement: 'survived',
      misattributed: [`${UNKNOWN} (rule transition.merge-unknown-rejected) named transition.merge`],
    });
  });

  it.for([
    { what: 'a failed Given', message: GIVEN, reason: /^a Given failed \(Precondition not met: the step "Given two/ },
    {
      what: "the suite's own crash",
      message: failure(
        'SuiteError',
        "Suite error (no verdict): TypeError: Cannot read properties of undefined (reading 'gedi')",
        { category: 'Suite error', rule: 'transition.merge', step: 'When the client merges' },
      ),
      reason: /^the suite crashed \(Suite error \(no verdict\): TypeError: Cannot read/,
    },
    {
      what: 'a TypeError not yet wrapped',
      message: failure('TypeError', 'record.gedi is not a function'),
      reason: /^the suite crashed \(record\.gedi is not a function\)$/,
    },
    {
      what: "a failure with no verdict (vitest's own timeout)",
      message: failure('Error', 'Test timed out in 120000ms.'),
      reason: /^no verdict \(Test timed out in 120000ms\.\)$/,
    },
  ])('is not judged, with the reason, after $what', ({ message, reason }) => {
    const verdict = verdictOf('merge-ignored', merge({ [MERGE]: [message] }));
    expect(verdict).toMatchObject({ judgement: 'not judged', reasons: [expect.stringMatching(reason)] });
    expect(formatMatrix([verdict])).toBe(`NOT JUDGED merge-ignored (breaks transition.merge) — ${verdict.reasons[0]}`);
  });

  it('is a kill for a mutant reported as a category when its own test fails so in the step that exercises it', () => {
    const inStep = (step: string) =>
      failure('ListIncompleteError', `${INCOMPLETE} (in the step "${step}")`, {
        category: 'List could not be read completely',
        rule: 'consumer.isolation',
        step,
        evidence: INCOMPLETE,
      });
    expect(verdictOf('lists-answer-500', isolation([inStep('When the second client reads both lists')]))).toMatchObject(
      { judgement: 'killed' },
    );
    expect(verdictOf('lists-answer-500', isolation([inStep('Then neither list shows them')]))).toMatchObject({
      judgement: 'survived',
      reasons: ['its category "List could not be read completely" came outside the When'],
    });
    expect(verdictOf('lists-answer-500', isolation([inStep('Given a consumer of the first client')]))).toMatchObject({
      judgement: 'not judged',
      reasons: [expect.stringMatching(/^a Given failed/)],
    });
  });

  it('is no kill for a mutant reported as a category when its rule is named instead', () => {
    const named = broken('consumer.isolation', 'Then "neither list shows the first client\'s records"', 'seen');
    expect(verdictOf('lists-answer-500', isolation([named]))).toMatchObject({
      judgement: 'survived',
      reasons: ['its rule was named where the failure must be "List could not be read completely"'],
    });
  });

  it("judges by the verdict's fields, whatever the message says", () => {
    const reworded = { ...NOT_MERGED, name: 'Error', message: 'The merged person never showed up' };
    expect(verdictOf('merge-ignored', merge({ [MERGE]: [reworded] })).judgement).toBe('killed');
    const { category, rule, step, ...wordsOnly } = NOT_MERGED;
    expect([category, rule, step]).toEqual(['Broken rule', 'transition.merge', expect.stringMatching(/^Then /)]);
    expect(verdictOf('merge-ignored', merge({ [MERGE]: [wordsOnly] }))).toMatchObject({
      judgement: 'not judged',
      reasons: [expect.stringMatching(/^no verdict \(Broken rule transition\.merge /)],
    });
    const elsewhere = { ...NOT_MERGED, rule: 'transition.merge-unknown-rejected' };
    expect(verdictOf('merge-ignored', merge({ [MERGE]: [elsewhere] }))).toMatchObject({ judgement: 'survived' });
  });

  it('is not judged when the control run failed, however the mutant did', () => {
    const control = ['specs/persons/merge.spec.ts (NotConsistentError: Not shown within 4 s)'];
    const verdict = verdictOf('merge-rejected', merge({ [MERGE]: [REFUSED] }), control);
    expect(verdict).toMatchObject({ judgement: 'not judged', controlFailed: control });
    expect(formatMatrix([verdict])).toContain(`without the mutant, same settings, ${control[0]}`);
  });

  it('judges the setup rule where the run checks it, before any spec file', () => {
    const output = `Broken rule auth.token-issued (Authentication: "…"): the token response has no access_token`;
    expect(verdictOf('token-without-access-token', { files: [], output }).judgement).toBe('killed');
    expect(verdictOf('merge-ignored', { files: [], output: 'Target unavailable: connection refused' })).toMatchObject({
      judgement: 'not judged',
      reasons: ['no spec file ran (Target unavailable: connection refused)'],
    });
  });

  it('prints each verdict on a line of its own', () => {
    const lines = formatMatrix([
      verdictOf('merge-rejected', merge({ [MERGE]: [REFUSED] })),
      verdictOf('merge-rejected', merge({ [MERGE]: [NOT_MERGED] })),
    ]).split('\n');
    expect(lines).toEqual([
      'killed     merge-rejected (breaks transition.merge) → specs/persons/merge.spec.ts → transition.merge (must ' +
        'break in the When)',
      'SURVIVED   merge-rejected (breaks transition.merge) → specs/persons/merge.spec.ts → transition.merge (must ' +
        'break in the When) — its rule broke in the Then, not in the When',
    ]);
  });
});
