/**
 * Consumer data v3 — operation 6.
 *
 * > GET {base_url}/consumer-intelligence/v3/consumers — The uploaded consumers.
 *
 * Every uploaded consumer is listed, whether identified or not. Not asserted (not shown): the
 * fields of a listed consumer beyond its `consumerId`, parameters, order, page size.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('consumer.list-contains-uploaded').test(
  'lists every uploaded consumer, matched or not',
  async ({ persons, consumers, data }) => {
    const stored = await Given('an available person', () => persons.createAvailable());
    const uploaded = [data.consumer(stored.person.legalId), data.consumer(data.unknownLegalId())];

    const response = await When('the client uploads one consumer matching it and one matching no person', () =>
      consumers.upload(uploaded),
    );

    await Then('the upload is accepted', async () => {
      expectAccepted(response, 'the upload');
    });
    for (const consumer of uploaded) {
      await Then(`consumer ${consumer.consumerId} is eventually listed`, () =>
        consumers.awaitConsumer(consumer.consumerId, 'to be listed'),
      );
    }
  },
);
