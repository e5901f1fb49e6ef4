/**
 * Consumer data v3 — States and transitions.
 *
 * > POST consumers | consumer `data.legalId` matches an existing person | The consumer becomes
 * > IDENTIFIED and a subscription is created
 *
 * The IDENTIFIED half of the transition (specs/consumers/subscription-created.spec.ts checks the
 * subscription); it may arrive late, so it is waited for. IDENTIFIED is read on the consumer's own entry, where the
 * target's reviewed layout file says `consumer.identified` lives, and nothing else (docs/DESIGN.md, "Strict
 * readings"); where it moved, the failure is Layout changed. Not asserted (not shown): the
 * upload's status (any 2xx), the other consumer states, the layout of the consumer list and of the subscribed persons,
 * their order and paging.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('transition.consumer-identified').test(
  'identifies a consumer whose legal id matches an existing person',
  async ({ persons, consumers, data }) => {
    const stored = await Given('an available person', () => persons.createAvailable());
    const consumer = data.consumer(stored.person.legalId);
    // Uploaded with it, the control differs by its legal id alone, which no person has (support/layout/learning.ts).
    const control = data.consumer(data.unknownLegalId());

    const response = await When(
      'the client uploads a consumer with that legal id, and a control with a legal id of no person',
      () => consumers.upload([consumer, control]),
    );

    await Then('the upload is accepted', async () => {
      expectAccepted(response, 'the upload');
    });
    await Then('the consumer is eventually listed as IDENTIFIED', () =>
      consumers.awaitConsumer(
        consumer.consumerId,
        'to be listed as IDENTIFIED',
        consumers.identifiedBeside(consumer, control),
        'identification',
      ),
    );
  },
);
