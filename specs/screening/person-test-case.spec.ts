/**
 * AML screening v2 — operation 8 and the sandbox test references.
 *
 * > person_test_case_01 | Person screening; a politician screened with the service's own
 * > screening provider
 *
 * A PEP hit counts only on affirmative evidence (docs/DESIGN.md, "The rule of evidence"): a match (hit)
 * entry whose category, type or list name is PEP, or an affirmative PEP flag on a match or on the screened
 * subject. An entry whose own field says it is no match (`matched: false`, a NO_MATCH status) is no hit,
 * nor is a match whose own category names another list, whatever datasets were searched; an answer whose
 * outcome or hit count says "no match" is never a hit, whatever words it contains elsewhere (the lists it
 * checked, "No PEP match found"). A former PEP (`active: false`) or an unreviewed hit (`confirmed: false`)
 * is still a hit. With the target's layout file, only the match entries at its learned location count
 * (`screening.pep`). Not asserted (not shown): every other field of the response, its status beyond 2xx.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted, expectFact } from '../../support/evidence/expectations.js';

rule('screening.person-test-case').test(
  'screens person_test_case_01 as a politically exposed person',
  async ({ screening, data, facts }) => {
    const request = await Given("the person test reference with the service's own provider", async () =>
      screening.personRequest(TEST_REFERENCES.politician, data.personName()),
    );

    const response = await When('the client screens the person', () => screening.screenPerson(request));

    await Then('the answer is 2xx and shows a politically exposed person', async () => {
      expectAccepted(response, 'the screening');
      await expectFact(facts.pepHit(response.body), `${request.reference} is a politically exposed person (PEP) hit`);
    });
  },
);
