/**
 * Consumer data v3 — What the service does, item 5.
 *
 * > The client can list its consumers and read the latest versions of its subscribed persons.
 *
 * "Its": another client's consumers and subscriptions are not listed. Needs a second client
 * (CONTRACT_SECOND_CLIENT_ID / CONTRACT_SECOND_CLIENT_SECRET); skipped, with that reason, without.
 * A refusal of the second client's lists shows nothing of either list: it ends the check as not
 * permitted (403) or as a list not read completely, never as a pass.
 * Not asserted (not shown): what else the second client's lists hold.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { containsValue } from '../../support/readings/json.js';

rule('consumer.isolation').test(
  "never shows one client's consumers or subscriptions to another client",
  async ({ persons, consumers, data, secondApi, skipBecause }) => {
    if (!secondApi)
      return skipBecause(
        'no second client configured: set CONTRACT_SECOND_CLIENT_ID and CONTRACT_SECOND_CLIENT_SECRET to check ' +
          'isolation',
      );
    const { stored, consumer } = await Given(
      'a consumer of the first client, identified and subscribed, as the first client sees it',
      async () => {
        const person = await persons.createAvailable();
        const upload = data.consumer(person.person.legalId);
        await consumers.subscribe(person, upload);
        return { stored: person, consumer: upload };
      },
    );
    const other = consumers.as(secondApi);

    const [otherConsumers, otherSubscriptions] = await When(
      'the second client lists its consumers and subscribed persons',
      () => Promise.all([other.listWhole('consumers'), other.listWhole('subscribed persons')]),
    );

    await Then("neither list shows the first client's records", async () => {
      expect(
        containsValue(otherConsumers.body, consumer.consumerId),
        `the second client does not see consumer ${consumer.consumerId}`,
      ).toBe(false);
      expect(
        containsValue(otherSubscriptions.body, stored.gedi),
        `the second client does not see the subscription to ${stored.gedi}`,
      ).toBe(false);
      expect(
        containsValue(otherSubscriptions.body, stored.person.legalId),
        `the second client does not see legal id ${stored.person.legalId}`,
      ).toBe(false);
    });
  },
);
