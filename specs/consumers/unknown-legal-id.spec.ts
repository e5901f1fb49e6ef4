/**
 * Consumer data v3 — What the service does, item 5.
 *
 * > A consumer whose legal id matches a known person is identified and a subscription is created.
 *
 * Its converse: a consumer whose legal id matches no person is not identified and gets no
 * subscription. A negative can only be observed at a moment: the moment chosen is when a matching
 * consumer uploaded after it has been identified and subscribed, so the unmatched one had longer
 * than that to be (wrongly) identified. The subscribed persons are then read alone, every page
 * (`listWhole`, not the run's shared scan). Absence is judged only on lists read whole and
 * accepted: a refused page ends the check as not permitted (403) or as a list not read completely. A
 * subscribed person counts when a record of the list carries the unknown legal id as its own
 * (support/readings/facts.ts `personWithLegalId`).
 * Not asserted (not shown): which state an unmatched consumer gets instead.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { personWithLegalId } from '../../support/readings/facts.js';
import { expectAccepted, expectNoFact } from '../../support/evidence/expectations.js';

rule('consumer.unknown-not-identified').test(
  'does not identify, nor subscribe to, a consumer whose legal id matches no person',
  async ({ persons, consumers, data }) => {
    const unknownLegalId = data.unknownLegalId();
    const unmatched = data.consumer(unknownLegalId);
    const stored = await Given(
      'a consumer with a legal id of no person, already listed, and an available person',
      async () => {
        const upload = await consumers.upload([unmatched]);
        expectAccepted(upload, 'the upload');
        await consumers.awaitConsumer(unmatched.consumerId, 'to be listed');
        return persons.createAvailable();
      },
    );

    await When('a consumer matching the person is uploaded later and has been identified and subscribed', () =>
      consumers.subscribe(stored, data.consumer(stored.person.legalId)),
    );

    await Then('the unmatched consumer is not IDENTIFIED', async () => {
      const record = await consumers.lookUpConsumer(unmatched.consumerId);
      expect(record, `consumer ${unmatched.consumerId} is still listed`).toBeDefined();
      await expectNoFact(
        consumers.identified()(record),
        `consumer ${unmatched.consumerId} with unknown legal id ${unknownLegalId} is IDENTIFIED`,
      );
    });
    await Then('no subscribed person carries the unknown legal id', async () => {
      const subscribed = await consumers.listWhole('subscribed persons');
      await expectNoFact(
        personWithLegalId(consumers.entriesOf('subscribed persons', subscribed), unknownLegalId),
        `a subscribed person carries unknown legal id ${unknownLegalId} as its own`,
      );
    });
  },
);
