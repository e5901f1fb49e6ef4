/**
 * AML screening v2 — What the service does, item 6.
 *
 * > In the sandbox, fixed `reference` values select predefined test cases.
 *
 * Predefined: the same reference answers the same result every time (three calls each, all 2xx),
 * apart from what is proven volatile: keys that are an identifier or timestamp name (`id`,
 * `screeningId`, `createdAt`; never a part of another word such as `candidates`) and values shaped
 * like UUIDs or timestamps. Not asserted (not shown): which fields are identifiers.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import {
  screeningOutcome,
  TEST_REFERENCES,
  type CompanyScreeningRequest,
  type PersonScreeningRequest,
} from '../../support/verbs/screening.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

const CALLS = 3;

rule('screening.deterministic').test(
  'answers each test reference with the same result on every call',
  async ({ screening, data }) => {
    const requests = await Given('the person test request and both company test requests', async () => [
      {
        request: screening.personRequest(TEST_REFERENCES.politician, data.personName()),
        send: (request: object) => screening.screenPerson(request as PersonScreeningRequest),
      },
      ...[TEST_REFERENCES.firstCompany, TEST_REFERENCES.secondCompany].map((reference) => ({
        request: screening.companyRequest(reference),
        send: (request: object) => screening.screenCompany(request as CompanyScreeningRequest),
      })),
    ]);

    const answers = await When(`the client sends each request ${CALLS} times`, () =>
      Promise.all(requests.map(({ request, send }) => Promise.all(Array.from({ length: CALLS }, () => send(request))))),
    );

    await Then('every answer is 2xx and each reference answers the same test case every time', async () => {
      requests.forEach(({ request }, index) => {
        const [first, ...later] = answers[index]!;
        for (const [call, answer] of [first!, ...later].entries())
          expectAccepted(answer, `call ${call + 1} of ${(request as { reference: string }).reference}`);
        for (const [call, answer] of later.entries()) {
          expect(
            screeningOutcome(answer.body, request),
            `${(request as { reference: string }).reference} answered differently on call ${call + 2}`,
          ).toEqual(screeningOutcome(first!.body, request));
        }
      });
    });
  },
);
