// Who is blamed for a failure: the rule under test, in the When or Then step that failed; a precondition (a Given
// step, or another rule's promise that failed decisively); a permission (401 or 403); the path of an operation (404
// while the resource shows elsewhere); the suite itself (a crash). attributeToRule decides from the errors the steps
// and verbs threw, and answers with new errors.
import { describe, expect, it } from 'vitest';
import {
  attributeToRule,
  BrokenRuleError,
  brokenRuleMessage,
  NotPermittedError,
  notPermitted,
  operationNotFound,
  OtherRuleFailure,
  PreconditionError,
  refusalQuote,
  StepFailure,
  verdictOf,
} from '../../support/evidence/failures.js';
import { expectAccepted } from '../../support/evidence/expectations.js';
import { Given, Then, When } from '../../support/verbs/contract.js';
import { ListIncompleteError } from '../../support/readings/list-reader.js';
import { ConfigError } from '../../support/run/config.js';
import { registerSecret } from '../../support/transport/redact.js';
import { joinedPattern } from '../patterns.js';
import { answer, failureOf } from './answers.js';

const refusedPut = () =>
  failureOf(() => expectAccepted(answer(400, '{"error":"phoneList: not accepted"}', 'op1'), 'PUT'));

describe('attributeToRule', () => {
  it('names the rule under test, the step that failed and what the answer refused', async () => {
    const error = await failureOf(() =>
      When('the client PUTs the person with merged.gedi', () =>
        expectAccepted(answer(400, '{"message":"merged.gedi: unknown"}', 'op1'), 'PUT sandbox person'),
      ),
    );
    const blamed = attributeToRule(error, 'transition.merge') as Error;
    expect(blamed).toBeInstanceOf(BrokenRuleError);
    expect(blamed.message).toMatch(
      joinedPattern(
        /^Broken rule transition\.merge \(.*\): When "the client PUTs the person with merged\.gedi": /,
        /PUT sandbox person answered 400 \(it said: \{"message":"merged\.gedi: unknown"\}\); any 2xx was expected/,
      ),
    );
    expect(blamed.name, 'the failure that broke it, as the taxonomy reads it').toBe('AssertionError');
    expect(blamed.cause, 'the assertion itself, unchanged').toBe((error as StepFailure).cause);
    expect((blamed.cause as Error).message).toMatch(/^PUT sandbox person answered 400/);
  });

  it("keeps the wait's timeout as the detail of a rule broken in a Then, and its class as the name", async () => {
    const timeout = Object.assign(
      new Error('Not shown within 4 s: person g1 to be removed; removed: not in the record'),
      {
        name: 'NotConsistentError',
      },
    );
    const error = await failureOf(() =>
      Then('the person is eventually shown as removed', () => Promise.reject(timeout)),
    );
    const blamed = attributeToRule(error, 'transition.remove') as Error;
    expect(blamed.message).toMatch(
      /^Broken rule transition\.remove \(.*\): Then "the person is eventually shown as removed": Not shown within 4 s/,
    );
    expect(blamed.name).toBe('NotConsistentError');
    expect(timeout.message, 'the original is never rewritten').toMatch(/^Not shown within/);
  });

  it(
    'reports a failure inside a Given step as a precondition not met, naming the step and the rule whose promise ' +
      'failed',
    async () => {
      const inGiven = await failureOf(() =>
        Given('an available person', async () => {
          throw new OtherRuleFailure('person.create-returns-gedi', await refusedPut());
        }),
      );
      expect(inGiven).toBeInstanceOf(PreconditionError);
      expect(inGiven.message).toBe(
        'Precondition not met: the step "Given an available person" failed: PUT answered 400 (it said: ' +
          '{"error":"phoneList: not accepted"}); any 2xx was expected.',
      );
      const blamed = attributeToRule(inGiven, 'transition.remove');
      expect(blamed).toBeInstanceOf(PreconditionError);
      expect(blamed).not.toBe(inGiven);
      expect((blamed as Error).message).toMatch(
        joinedPattern(
          /^Precondition not met: the step "Given an available person" failed before rule transition\.remove could /,
          /be checked: PUT answered 400 \(it said: \{"error":"phoneList: not accepted"\}\); any 2xx /,
          /was expected\. That step is what rule person\.create-returns-gedi \("PUT .*"\) promises; its own spec /,
          /reports it\.$/,
        ),
      );
      expect((blamed as Error).message).not.toMatch(/Broken rule/);
    },
  );

  it("blames another rule's promise failed decisively on that rule, in a When too, not in its own spec", async () => {
    const missingGedi = () =>
      failureOf(() =>
        When('the client PUTs the person', () => {
          const schema = new Error('value does not match schema "put-person-response"');
          throw new OtherRuleFailure('person.create-returns-gedi', schema, true);
        }),
      );
    const elsewhere = attributeToRule(await missingGedi(), 'transition.relationship-death') as Error;
    expect(elsewhere).toBeInstanceOf(PreconditionError);
    expect(elsewhere.message).toMatch(
      /^Precondition not met: the step "When the client PUTs the person" failed before rule transition\.relationship-/,
    );
    expect((attributeToRule(await missingGedi(), 'person.create-returns-gedi') as Error).message).toMatch(
      /^Broken rule person\.create-returns-gedi \(.*\): When "the client PUTs the person": value does not match/,
    );
  });

  it("keeps another rule's promise failed, not decisively, outside a Given, on the rule under test", async () => {
    const neverIdentified = await failureOf(() =>
      When('a matching consumer is uploaded', () => {
        throw new OtherRuleFailure('transition.consumer-identified', new Error('Not shown within 4 s: consumer c1'));
      }),
    );
    expect((attributeToRule(neverIdentified, 'consumer.unknown-not-identified') as Error).message).toMatch(
      /^Broken rule consumer\.unknown-not-identified \(.*\): When "a matching consumer is uploaded": Not shown /,
    );
  });

  it("reports a crash of the suite's own code as a suite error, in any step, with no verdict", async () => {
    const crash = await failureOf(() => Then('it is found', () => (undefined as unknown as { gedi: string }).gedi));
    const blamed = attributeToRule(crash, 'transition.delete') as Error;
    expect(blamed.name).toBe('SuiteError');
    expect(blamed.message).toMatch(/^Suite error \(no verdict\): TypeError: Cannot read properties of undefined/);
    const inGiven = await failureOf(() => Given('a person', () => JSON.parse('{')));
    expect(attributeToRule(inGiven, 'transition.delete')).toHaveProperty('name', 'SuiteError');
  });

  it('hands a category failure on with its name and first words, naming its step, and what no step threw', async () => {
    const throttled = Object.assign(new Error('Target throttled: 429 until the deadline'), {
      name: 'TargetThrottledError',
    });
    const inGiven = await failureOf(() => Given('an available person', () => Promise.reject(throttled)));
    expect(attributeToRule(inGiven, 'transition.delete')).toMatchObject({
      name: 'TargetThrottledError',
      message: 'Target throttled: 429 until the deadline (in the step "Given an available person")',
      cause: throttled,
    });
    const inThen = await failureOf(() => Then('it is gone', () => Promise.reject(throttled)));
    expect(attributeToRule(inThen, 'transition.delete')).toMatchObject({
      name: 'TargetThrottledError',
      message: 'Target throttled: 429 until the deadline (in the step "Then it is gone")',
    });
    const skipped = Object.assign(new Error('test is skipped'), { name: 'PendingError' });
    expect(attributeToRule(skipped, 'transition.delete')).toBe(skipped);
  });

  it('reports a 403, answered or awaited, as not permitted, in any step, naming what the operation needs', async () => {
    const forbidden = answer(403, '{"message":"no onboarding permission for SE"}');
    const answered = await failureOf(() => expectAccepted(forbidden, 'the find'));
    expect(attributeToRule(answered, 'person.find-by-legal-id')).toMatchObject({
      name: answered.name,
      message: answered.message,
      category: 'Not permitted',
      cause: answered,
    });
    expect(answered).toBeInstanceOf(NotPermittedError);
    expect(answered.message).toBe(
      'Not permitted: the find (op4: POST /consumer-intelligence/v3/markets/SE/persons/_find) answered 403, ' +
        'authenticated but not authorized (it said: {"message":"no onboarding permission for SE"}); ' +
        'finding persons needs the client\'s permission for the market ("onboarding"): check CONTRACT_MARKET and ' +
        "the client's permissions.",
    );
    const awaited = Object.assign(new Error('Gave up waiting'), {
      name: 'WaitRejectedError',
      what: 'person g1 to be found',
      response: forbidden,
    });
    const blamed = attributeToRule(
      await failureOf(() => Then('the person is gone', () => Promise.reject(awaited))),
      'transition.delete',
    ) as Error;
    expect(blamed.name).toBe('NotPermittedError');
    expect(blamed.message).toMatch(/^Not permitted: waiting for person g1 to be found \(op4: .*\) answered 403/);
    expect(blamed.message).toMatch(/\(in the step "Then the person is gone"\)$/);
    const screening = notPermitted(
      answer(403, '', 'op8', '/aml-real-time-screening/v2/api/aml/kyc/person/screening'),
      'the screening',
    );
    expect(screening.message).toMatch(
      /no body\); screening needs the vendor's screening scope, separate from bci: set CONTRACT_SCREENING_SCOPE/,
    );
  });

  it('reports an operation served elsewhere with its path setting, never as a rule', () => {
    const error = operationNotFound(
      'op3',
      answer(404, '{"error":"no route"}', 'op3', '/consumer-intelligence/v3/markets/SE/persons/g1'),
      'operation 4 finds the person by its legal id 199001011234',
    );
    expect(attributeToRule(error, 'transition.merge')).toMatchObject({
      name: error.name,
      message: error.message,
      category: 'Operation not found',
      cause: error,
    });
    expect(error.message).toBe(
      'Operation not found: op3 (POST /consumer-intelligence/v3/markets/SE/persons/g1) answered 404 (it said: ' +
        '{"error":"no route"}) while operation 4 finds the person by its legal id 199001011234: ' +
        'the target serves it at another path, or refuses this client access to it. Check CONTRACT_PERSON_PATH ' +
        '(the documented path is /consumer-intelligence/v3/markets/{market}/persons/{gedi}; README "Operation ' +
        'paths" lists the vendor\'s alternatives).',
    );
  });

  it('names the rule id, its section and the documented words, then the step and what failed in it', () => {
    const failed = new StepFailure('Then', 'the DELETE is accepted', new Error('the DELETE answered 500'));
    const error = attributeToRule(failed, 'transition.delete') as Error;
    expect(error.message).toMatch(
      /^Broken rule transition\.delete \(States and transitions: "DELETE sandbox person \| body has only `?id`?/,
    );
    expect(error.message).toMatch(/\): Then "the DELETE is accepted": the DELETE answered 500$/);
  });

  it('names only the rule of the spec it runs in, whatever verb the failure came from', () => {
    const fromStore = new Error('PUT sandbox person answered 422; any 2xx was expected');
    const failed = new StepFailure('When', 'the client PUTs it', fromStore);
    expect(attributeToRule(failed, 'transition.merge')).toMatchObject({
      category: 'Broken rule',
      rule: 'transition.merge',
    });
  });

  it('leaves failures that are not about the contract alone', () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { name: 'TargetUnavailableError' });
    expect((attributeToRule(unreachable, 'transition.delete') as Error).message).toBe('connect ECONNREFUSED');
    expect((attributeToRule(new ConfigError('CONTRACT_MARKET', 'bad'), 'transition.delete') as Error).message).toBe(
      'CONTRACT_MARKET: bad',
    );
    const incomplete = new ListIncompleteError(
      '/v3/consumers',
      'offset',
      3,
      'the total says 12 records, but the page at offset 15 is empty',
      [],
    );
    expect((attributeToRule(incomplete, 'consumer.unknown-not-identified') as Error).message).toMatch(
      /^List could not be read completely/,
    );
  });
});

describe('brokenRuleMessage', () => {
  it('refuses a rule id the catalogue does not know', () => {
    expect(() => brokenRuleMessage('no.such-rule', 'x')).toThrow(/Unknown rule id "no.such-rule"/);
  });
});

describe('the verdict as data', () => {
  const step = 'Then the person is eventually shown as removed';
  const verdicts = () => [
    attributeToRule(
      new StepFailure('Then', 'the person is eventually shown as removed', new Error('seen\nmore')),
      'transition.remove',
    ),
    attributeToRule(new PreconditionError('Given an available person', new Error('not found')), 'transition.remove'),
    attributeToRule(new StepFailure('When', 'it is read', new TypeError('x is undefined')), 'transition.remove'),
    attributeToRule(
      new StepFailure('Then', 'the person is eventually shown as removed', new ConfigError('CONTRACT_MARKET', 'bad')),
      'transition.remove',
    ),
  ];

  it('carries category, rule, step and evidence as fields of the error', () => {
    expect(verdicts()).toMatchObject([
      { category: 'Broken rule', rule: 'transition.remove', step, evidence: 'seen' },
      {
        category: 'Precondition not met',
        rule: 'transition.remove',
        step: 'Given an available person',
        evidence: 'not found',
      },
      { category: 'Suite error', rule: 'transition.remove', step: 'When it is read', evidence: 'x is undefined' },
      { category: 'Configuration error', rule: 'transition.remove', step, evidence: 'CONTRACT_MARKET: bad' },
    ]);
  });

  it('keeps the fields through serialization as vitest reports a thrown error (own enumerable properties)', () => {
    for (const error of verdicts()) {
      const serialized = JSON.parse(JSON.stringify({ ...(error as Error), message: (error as Error).message }));
      expect(verdictOf(serialized)).toEqual(verdictOf(error));
    }
  });
});

describe('refusalQuote', () => {
  it('quotes the answer as sent, whatever its layout, redacted and cut short', () => {
    registerSecret('refusal-secret-42');
    expect(refusalQuote({ text: '{"detail":"token refusal-secret-42 is not valid"}' })).toBe(
      'it said: {"detail":"token [REDACTED] is not valid"}',
    );
    expect(refusalQuote({ text: '' })).toBe('no body');
    expect(refusalQuote({ text: 'x'.repeat(400) })).toBe(`it said: ${'x'.repeat(300)}…`);
  });
});
