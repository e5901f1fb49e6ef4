/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | an element of `relationshipList` has `dateOfDeath` | The related person
 * > is marked deceased
 *
 * The related person is identified by its own legal id; the mark is the documented relationship
 * field `deceased` (or a DECEASED status) on the relative's own entry (the list entry that
 * carries that legal id), never on the person or on another relative.
 * Not asserted (not shown): whether the related person also becomes a person of its own, whether
 * the date of death is echoed.
 */
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { relativeFlag } from '../../support/readings/facts.js';
import { expectFact } from '../../support/evidence/expectations.js';

rule('transition.relationship-death').test('marks the related person deceased when its relationship has a dateOfDeath', async ({ persons, data }) => {
  const relative = data.relationship({ dateOfDeath: data.pastDate() });
  const person = await Given('a person whose parent has a date of death', async () => data.person({ relationshipList: [relative] }));

  const stored = await When('the client PUTs the person', () => persons.store(person));

  const legalId = relative.legalId!.socialSecurityNumber!;
  await Then('the related person is eventually shown deceased', async () => {
    const record = await persons.awaitRetrievable(stored, `to show the relative ${legalId} deceased`, (body) => relativeFlag(body, legalId, 'deceased').holds, { name: 'relationship-death', since: stored.acknowledgedAt });
    await expectFact(relativeFlag(record, legalId, 'deceased'), `the relative ${legalId} is marked deceased`);
  });
});
