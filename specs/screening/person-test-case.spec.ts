/**
 * AML screening v2 — operation 8 and the sandbox test references.
 *
 * > person_test_case_01 | Person screening; a politician screened with the service's own
 * > screening provider
 *
 * Evidence of a politically exposed person is looked for anywhere in the answer: a key naming PEP
 * or political exposure with a non-empty value, or a text saying PEP, politically exposed or
 * politician. Not asserted (not shown): every other field of the response, its status beyond 2xx.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { showsPoliticallyExposedPerson, TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('screening.person-test-case').test('screens person_test_case_01 as a politically exposed person', async ({ screening, data }) => {
  const request = await Given('the person test reference with the service\'s own provider', async () =>
    screening.personRequest(TEST_REFERENCES.politician, data.personName()),
  );

  const response = await When('the client screens the person', () => screening.screenPerson(request));

  await Then('the answer is 2xx and shows a politically exposed person', async () => {
    expectAccepted(response, 'the screening');
    expect(showsPoliticallyExposedPerson(response.body), 'the result shows a politically exposed person (PEP)').toBe(true);
  });
});
