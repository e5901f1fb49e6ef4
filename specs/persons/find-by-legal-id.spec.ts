/**
 * Consumer data v3 — operation 4.
 *
 * > POST {base_url}/consumer-intelligence/v3/markets/{market}/persons/_find — Object with
 * > `legalId` (string) — Matching person.
 *
 * "Matching" is also a limit: every person record of the answer carries the legal id asked for.
 * The person records are the answer itself when it is one person (the vendor's pages show one
 * object, its `legalId` as `{ "identityNumber": … }`), or the persons of its list or envelope;
 * what sits inside a person record (its relatives with their own legal ids, its earlier legal ids)
 * is that person's own. Where the answer holds a list of results, its persons are entries of that
 * list: a legal id beside the list (`{ "legalId": …, "results": [] }`) or in its metadata repeats the
 * query. A failure shows each record that should not be there
 * (support/readings/facts.ts, `personsWithoutLegalId`). Both persons are looked up, each by its own
 * legal id: a service that answers one person object whatever the legal id answers the same person
 * to both, so one of the two answers shows the other person.
 * Not asserted (not shown): other search fields, the response shape (one object or a list), the
 * status when nothing matches (the vendor's pages show 204), the order of several matches.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { personsWithoutLegalId, personWithLegalId } from '../../support/readings/facts.js';
import { containsValue } from '../../support/readings/json.js';
import { expectFact, expectNoFact } from '../../support/evidence/expectations.js';

rule('person.find-by-legal-id').test(
  'finds the person matching the legal id, and no person with another legal id',
  async ({ persons, facts }) => {
    const pair = await Given('two available persons with different legal ids', () =>
      Promise.all([persons.createAvailable(), persons.createAvailable()]),
    );

    const answers = await When('the client finds each by its legal id', () =>
      Promise.all(pair.map((wanted, index) => persons.awaitFindable(wanted, [pair[1 - index]!]))),
    );

    for (const [index, wanted] of pair.entries()) {
      const [answer, other, legalId] = [answers[index]!.record, pair[1 - index]!, wanted.person.legalId];
      // The persons found, where the target's layout file says a find answer holds them; the whole answer is checked
      // for the other person.
      const found = facts.foundIn(answer);
      await Then(
        `the answer to legal id ${legalId} holds the matching person, and only persons with that legal id`,
        async () => {
          await expectFact(
            personWithLegalId(found, legalId),
            `a person record of the answer carries legal id ${legalId}`,
          );
          await expectNoFact(
            personsWithoutLegalId(found, legalId),
            `a person record of the answer to ${legalId} without that legal id`,
          );
          expect(
            containsValue(answer, other.person.legalId),
            `the other person's legal id ${other.person.legalId} is not in the answer to ${legalId}`,
          ).toBe(false);
          expect(
            containsValue(answer, other.gedi),
            `the other person's gedi ${other.gedi} is not in the answer to ${legalId}`,
          ).toBe(false);
        },
      );
    }
  },
);
