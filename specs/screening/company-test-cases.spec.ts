/**
 * AML screening v2 — operation 9 and the sandbox test references.
 *
 * > company_test_case_01 | Company screening
 * > company_test_case_02 | Company screening
 *
 * Two references select two predefined cases, so their results differ in more than identifiers,
 * timestamps and the echoed reference, wherever it comes back (a field, a list, a sentence, another
 * letter case). With the target's layout file, they differ where it was learned that they do
 * (`screening.company`). The path is not documented: CONTRACT_COMPANY_SCREENING_PATH.
 * Not asserted (not shown): the request fields beyond `reference`, the result fields.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { screeningOutcome, TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted, expectFact } from '../../support/evidence/expectations.js';

rule('screening.company-test-cases').test(
  'answers the two company test references with different predefined results',
  async ({ screening, facts }) => {
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
      const outcome = (body: unknown, at: number) => screeningOutcome(body, requests[at]!);
      // Learning compares with a repeat of the first case: what differs between calls of one case is no result.
      const again = async () => outcome((await screening.screenCompany(requests[0]!)).body, 0);
      await expectFact(
        await facts.companyCasesDiffer(outcome(first!.body, 0), outcome(second!.body, 1), again),
        'the two company test cases give different results',
      );
    });
  },
);
