// HTTP's own verdict on a bad body sent on purpose: a 4xx keeps the rule, a 2xx or 5xx breaks it, and a 401 or 403
// is a refusal of the client, reported as not permitted and blaming no rule.
import { describe, expect, it } from 'vitest';
import { attributeToRule, NotPermittedError } from '../../support/evidence/failures.js';
import { Then } from '../../support/verbs/contract.js';
import type { ApiResponse } from '../../support/transport/http.js';
import { expectClientErrorsFor, type BodyOperation } from '../../support/verbs/conformance.js';
import { answer, failureOf } from './answers.js';

describe("HTTP's verdict on a bad body (expectClientErrorsFor)", () => {
  const SCREENING = '/aml-real-time-screening/v2/api/aml/kyc/person/screening';

  /** The verdict on answers each named by its own `what`, whatever operation they came from. */
  const expectClientErrors = (answers: { response: ApiResponse; what: string }[]) => {
    const operations = answers.map((): BodyOperation => ({
      id: 'op8',
      method: 'POST',
      path: SCREENING,
      takes: 'object',
    }));
    const responses = answers.map(({ response }) => response);
    expectClientErrorsFor(operations, responses, (operation) => answers[operations.indexOf(operation)]!.what);
  };
  const expectClientError = (response: ApiResponse, what: string) => expectClientErrors([{ response, what }]);

  const screened = (status: number, text: string) => answer(status, text, 'op8', SCREENING);
  const what = 'screening with malformed JSON';

  it.each([400, 404, 409, 413, 415])('takes %i for the verdict', (status) => {
    expect(() => expectClientError(screened(status, '{"error":"body: malformed"}'), what)).not.toThrow();
  });

  it.each([
    [500, /answered 500: a server error for the client's mistake/],
    [200, /answered 200: the bad input was accepted/],
  ])('names the rule for %i', async (status, says) => {
    const error = await failureOf(() => Then('it is rejected', () => expectClientError(screened(status, '{}'), what)));
    expect((attributeToRule(error, 'http.malformed-json-rejected') as Error).message).toMatch(says);
  });

  it.each([
    [403, /answered 403, authenticated but not authorized .*set CONTRACT_SCREENING_SCOPE.* no verdict on its body/],
    [401, /answered 401, its token not accepted for this operation .*set CONTRACT_SCREENING_SCOPE.* no verdict/],
  ])('reports %i, a refusal of the client, as not permitted and names no rule', async (status, says) => {
    const error = await failureOf(() => expectClientError(screened(status, '{"message":"bci may not screen"}'), what));
    expect(attributeToRule(error, 'http.malformed-json-rejected')).toMatchObject({
      name: 'NotPermittedError',
      category: 'Not permitted',
      cause: error,
    });
    expect(error.message).toMatch(says);
  });

  it('reports a broken verdict before a refusal, whichever operation answered first', async () => {
    const refused = { response: screened(403, ''), what };
    const put = answer(200, '{}', 'op1', '/consumer-intelligence/sandbox/v1/persons');
    const accepted = { response: put, what: 'PUT with malformed JSON' };
    const error = await failureOf(() => Then('each is rejected', () => expectClientErrors([refused, accepted])));
    const blamed = (attributeToRule(error, 'http.malformed-json-rejected') as Error).message;
    expect(blamed).toMatch(/^Broken rule http\.malformed-json-rejected .*PUT with malformed JSON answered 200/);
    expect(await failureOf(() => expectClientErrors([refused]))).toBeInstanceOf(NotPermittedError);
  });
});
