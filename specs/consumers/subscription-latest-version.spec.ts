/**
 * Consumer data v3 — operation 7.
 *
 * > GET {base_url}/consumer-intelligence/v3/subscriptions/persons — The latest versions of the
 * > subscribed persons.
 *
 * Not asserted (not shown): how versions are numbered, the layout, parameters and paging.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { ownsValue } from '../../support/readings/facts.js';

rule('subscription.latest-version').test(
  'shows the latest version of a subscribed person after it is updated',
  async ({ persons, consumers, data }) => {
    const stored = await Given('a person that a consumer of this client is subscribed to', async () => {
      const person = await persons.createAvailable();
      await consumers.subscribe(person, data.consumer(person.person.legalId));
      return person;
    });
    const familyName = data.familyName(stored.person);

    await When(`the person is updated with the family name ${familyName}`, () =>
      persons.store({ ...stored.person, familyName }),
    );

    await Then("the subscribed person's own entry eventually shows the new family name", () =>
      consumers.awaitSubscription(
        stored,
        `to show the family name ${familyName}`,
        (entry) => ownsValue(entry, familyName),
        'subscription-update',
      ),
    );
  },
);
