/**
 * AML screening v2 — What the service does, item 6.
 *
 * > In the sandbox, fixed `reference` values select predefined test cases.
 *
 * Predefined: the same reference answers the same result every time, apart from identifiers and
 * timestamps. Not asserted (not shown): which fields are identifiers; keys named like ids, times
 * or dates and values shaped like UUIDs or timestamps are left out of the comparison.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { screeningOutcome, TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('screening.deterministic').test('answers each test reference with the same result on every call', async ({ screening, data }) => {
  const person = await Given('the person test request', async () => screening.personRequest(TEST_REFERENCES.politician, data.personName()));
  const companies = [screening.companyRequest(TEST_REFERENCES.firstCompany), screening.companyRequest(TEST_REFERENCES.secondCompany)];

  const [personFirst, personSecond, ...companyAnswers] = await When('the client sends each request twice', () =>
    Promise.all([
      screening.screenPerson(person),
      screening.screenPerson(person),
      ...companies.flatMap((request) => [screening.screenCompany(request), screening.screenCompany(request)]),
    ]),
  );

  await Then('each pair of answers is the same test case', async () => {
    expect(screeningOutcome(personSecond!.body, person), `${person.reference} answered differently on a second call`).toEqual(screeningOutcome(personFirst!.body, person));
    companies.forEach((request, index) => {
      const [first, second] = [companyAnswers[2 * index]!, companyAnswers[2 * index + 1]!];
      expectAccepted(first, `the first ${request.reference}`);
      expectAccepted(second, `the second ${request.reference}`);
      expect(screeningOutcome(second.body, request), `${request.reference} answered differently on a second call`).toEqual(screeningOutcome(first.body, request));
    });
  });
});
