/**
 * Consumer data v3 — States and transitions.
 *
 * > POST consumers | consumer `data.legalId` matches an existing person | The consumer becomes
 * > IDENTIFIED and a subscription is created
 *
 * The subscription half of the transition (specs/consumers/identification.spec.ts checks the
 * IDENTIFIED half); it may arrive late, so it is waited for. Not asserted (not shown): the upload's
 * status (any 2xx), the layout of the subscribed persons, their order and paging.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('transition.subscription-created').test(
  'creates a subscription to the person a consumer was identified with',
  async ({ persons, consumers, data }) => {
    const stored = await Given('an available person', () => persons.createAvailable());

    const response = await When('the client uploads a consumer with its legal id', () =>
      consumers.upload([data.consumer(stored.person.legalId)]),
    );

    await Then('the upload is accepted', async () => {
      expectAccepted(response, 'the upload');
    });
    await Then('the person eventually appears among the subscribed persons', () =>
      consumers.awaitSubscription(stored, 'to be subscribed', undefined, 'subscription'),
    );
  },
);
