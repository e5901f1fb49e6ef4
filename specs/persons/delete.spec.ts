/**
 * Sandbox person management v1 — States and transitions.
 *
 * > DELETE sandbox person | body has only `id` | The custom person with that `id` is deleted
 *
 * Not asserted (not shown): the status of the DELETE (any 2xx), the status a deleted person gets
 * (404 and 410 both count as gone), how soon the deletion takes effect.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('transition.delete').test(
  'deletes the custom person with that id: eventually neither retrievable nor findable',
  async ({ persons }) => {
    const stored = await Given('an available person that is also findable', async () => {
      const person = await persons.createAvailable();
      await persons.awaitFindable(person);
      return person;
    });

    const response = await When('the client DELETEs with only its id', () => persons.delete(stored.person.id));

    await Then('the DELETE is accepted', async () => {
      expectAccepted(response, 'the DELETE');
    });
    await Then('the person is eventually gone from operations 3 and 4', () => persons.awaitGone(stored));
  },
);
