/**
 * Consumer data v3 — operation 4.
 *
 * > POST {base_url}/consumer-intelligence/v3/markets/{market}/persons/_find — Object with
 * > `legalId` (string) — Matching person.
 *
 * Both persons are looked up, each by its own legal id: a service that answers one person object
 * whatever the legal id (the vendor's pages show find answering one object) answers the same
 * person to both, so one of the two answers shows the other person.
 * Not asserted (not shown): other search fields, the response shape (one object or a list), the
 * status when nothing matches, the order of several matches.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { containsValue } from '../../support/readings/lookup.js';

rule('person.find-by-legal-id').test('finds the person matching the legal id, and not another person', async ({ persons }) => {
  const pair = await Given('two available persons with different legal ids', () => Promise.all([persons.createAvailable(), persons.createAvailable()]));

  const answers = await When('the client finds each by its legal id', () =>
    Promise.all(pair.map((wanted, index) => persons.awaitFindable(wanted, [pair[1 - index]!]))),
  );

  await Then('each answer is the matching person only', async () => {
    pair.forEach((wanted, index) => {
      const [found, other] = [answers[index], pair[1 - index]!];
      expect(containsValue(found, wanted.person.legalId), `the answer to legal id ${wanted.person.legalId} contains it`).toBe(true);
      expect(containsValue(found, other.person.legalId), `the other person's legal id ${other.person.legalId} is not in the answer to ${wanted.person.legalId}`).toBe(false);
      expect(containsValue(found, other.gedi), `the other person's gedi ${other.gedi} is not in the answer to ${wanted.person.legalId}`).toBe(false);
    });
  });
});
