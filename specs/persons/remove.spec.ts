/**
 * Sandbox person management v1 — States and transitions.
 *
 * > DELETE sandbox person | body has `removed` true plus person fields | Person is marked as
 * > removed
 *
 * The mark is read where the target's reviewed layout file says `person.removed` lives, and nothing else
 * (docs/DESIGN.md, "Strict readings"); where it moved, the failure is Layout changed, not this rule. A
 * location learned as the client's own value shown back (`by: as-sent`) passes and is reported apart.
 * Not asserted (not shown): the status of the DELETE (any 2xx), how the mark is spelled, which other fields
 * change.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('transition.remove').test('marks the person as removed, and keeps it retrievable', async ({ persons, facts }) => {
  const stored = await Given('an available person', () => persons.createAvailable());

  const response = await When('the client DELETEs with removed true plus the person fields', () =>
    persons.markRemoved(stored.person),
  );

  await Then('the DELETE is accepted', async () => {
    expectAccepted(response, 'the DELETE');
  });
  await Then('the person is eventually shown as removed', () =>
    persons.awaitRetrievable(
      stored,
      'to be marked as removed',
      facts.reading('person.removed', {
        sent: { ...stored.person, removed: true },
        ...persons.withControl(stored),
      }),
      'remove',
    ),
  );
});
