/**
 * Consumer data v3 — operation 7.
 *
 * > GET {base_url}/consumer-intelligence/v3/subscriptions/persons — The latest versions of the
 * > subscribed persons.
 *
 * Of the subscribed persons only: a person of the client that no consumer identified is never among
 * them. A negative can only be watched for: as long as a real subscription of the same client took
 * to appear (from its consumer's upload to the first read that showed it) after it appeared, then
 * the list is read once, every page, as person.write-isolation watches for a change that must not
 * come (a person once listed stays listed: one read at the window's end sees what any before would).
 * The unsubscribed person counts as listed only with a record of its own (its gedi or legal id as
 * that record's own, support/readings/facts.ts `listsPerson`), never as a relative inside another
 * person's record. Not asserted (not shown): the layout, parameters, order and paging of the list.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectNoFact } from '../../support/evidence/expectations.js';

rule('subscription.subscribed-only').test(
  'never lists a person of the client that no consumer identified',
  async ({ persons, consumers, data, config, clock }) => {
    const { unsubscribed, subscriptionTookMs } = await Given(
      'two available persons of the client, the first subscribed through a consumer uploaded for it',
      async () => {
        const [subscribed, other] = await Promise.all([persons.createAvailable(), persons.createAvailable()]);
        const upload = await consumers.subscribe(subscribed, data.consumer(subscribed.person.legalId));
        return { unsubscribed: other, subscriptionTookMs: clock.now() - upload.receivedAt };
      },
    );

    // No effect is waited for longer than the availability deadline, so no absence is watched for longer either: a
    // slow sandbox's queue can make the control take far longer than its effect did.
    const windowMs = Math.min(subscriptionTookMs, config.availabilityTimeoutMs);

    const listed = await When(
      'the client lists its subscribed persons, every page, after waiting as long as that subscription took ' +
        `(${windowMs} ms of ${subscriptionTookMs} ms, at most the availability deadline)`,
      () => consumers.watchForPerson('subscribed persons', unsubscribed, windowMs),
    );

    await Then('the second person, for whom no consumer was uploaded, is never among them', () =>
      expectNoFact(
        listed,
        `person ${unsubscribed.gedi}, whom no consumer identified, is listed among the subscribed persons`,
      ),
    );
  },
);
