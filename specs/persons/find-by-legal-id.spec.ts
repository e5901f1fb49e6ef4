/**
 * Consumer data v3 — operation 4.
 *
 * > POST {base_url}/consumer-intelligence/v3/markets/{market}/persons/_find — Object with
 * > `legalId` (string) — Matching person.
 *
 * Not asserted (not shown): other search fields, the response shape, the status when nothing
 * matches, the order of several matches.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { containsValue } from '../../support/readings/lookup.js';

rule('person.find-by-legal-id').test('finds the person matching the legal id, and not another person', async ({ persons }) => {
  const [wanted, other] = await Given('two available persons with different legal ids', () =>
    Promise.all([persons.createAvailable(), persons.createAvailable()]),
  );

  const found = await When('the client finds by the first legal id', () => persons.awaitFindable(wanted));

  await Then('the answer is the matching person only', async () => {
    expect(containsValue(found, wanted.person.legalId), 'the matching legal id is in the answer').toBe(true);
    expect(containsValue(found, other.person.legalId), `the other person's legal id ${other.person.legalId} is not in the answer`).toBe(false);
    expect(containsValue(found, other.gedi), `the other person's gedi ${other.gedi} is not in the answer`).toBe(false);
  });
});
