/**
 * Sandbox person management v1 — States and transitions.
 *
 * > DELETE sandbox person | body has `removed` true plus person fields | Person is marked as
 * > removed
 *
 * Not asserted (not shown): the status of the DELETE (any 2xx), how the mark is spelled (a
 * `removed` flag or a status value are both accepted, on the person's own record, not a relative's),
 * which other fields change.
 */
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { personFlag } from '../../support/readings/facts.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('transition.remove').test('marks the person as removed, and keeps it retrievable', async ({ persons }) => {
  const stored = await Given('an available person', () => persons.createAvailable());

  const response = await When('the client DELETEs with removed true plus the person fields', () =>
    persons.markRemoved(stored.person),
  );

  await Then('the DELETE is accepted', async () => {
    expectAccepted(response, 'the DELETE');
  });
  await Then('the person is eventually shown as removed', () =>
    persons.awaitRetrievable(stored, 'to be marked as removed', (record) => personFlag(record, 'removed'), 'remove'),
  );
});
