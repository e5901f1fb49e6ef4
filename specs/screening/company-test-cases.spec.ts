/**
 * AML screening v2 — operation 9 and the sandbox test references.
 *
 * > company_test_case_01 | Company screening
 * > company_test_case_02 | Company screening
 *
 * Two references select two predefined cases, so their results differ in more than identifiers,
 * timestamps and the echoed reference, wherever it comes back (a field, a list, a sentence, another
 * letter case). The path is not documented: CONTRACT_COMPANY_SCREENING_PATH.
 * Not asserted (not shown): the request fields beyond `reference`, the result fields.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { screeningOutcome, TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('screening.company-test-cases').test(
  'answers the two company test references with different predefined results',
  async ({ screening }) => {
    const requests = await Given('both company test references', async () => [
      screening.companyRequest(TEST_REFERENCES.firstCompany),
      screening.companyRequest(TEST_REFERENCES.secondCompany),
    ]);

    const [first, second] = await When('the client screens both companies', () =>
      Promise.all(requests.map((request) => screening.screenCompany(request))),
    );

    await Then('both answer 2xx with different results', async () => {
      expectAccepted(first!, 'company_test_case_01');
      expectAccepted(second!, 'company_test_case_02');
      expect(
        screeningOutcome(first!.body, requests[0]!),
        'the two company test cases give different results',
      ).not.toEqual(screeningOutcome(second!.body, requests[1]!));
    });
  },
);
