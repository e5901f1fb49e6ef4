/**
 * Consumer data v3 — operation 6.
 *
 * > GET {base_url}/consumer-intelligence/v3/consumers — The uploaded consumers.
 *
 * Uploaded consumers only, beyond what consumer.isolation checks (no other client's consumers): no
 * consumer the client never uploaded. On a shared sandbox that can be judged only for this test's
 * own data. The client's list also holds what every other run of the suite uploaded with the same
 * credentials, what anybody else using them uploaded, and whatever the service pre-seeds (the
 * simulator seeds background consumers); consumers cannot be deleted, so it only grows. A consumer
 * the suite does not recognise is therefore no evidence of anything. What is evidence: a consumer
 * of a person of this test for whom it uploaded none (that person's gedi or legal id as the entry's
 * own, support/readings/facts.ts `listsPerson`): its legal id was drawn for this test and sent to
 * nobody but the sandbox person interface. It is watched for as long as a real upload of the same
 * client took to be identified (from the upload to the first read that showed IDENTIFIED): the list
 * is read once, every page, at the window's end.
 * Not checked: a phantom consumer that carries nothing of this test's data.
 * Not asserted (not shown): the fields of a listed consumer, parameters, order, page size.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectNoFact } from '../../support/evidence/expectations.js';

rule('consumer.list-uploaded-only').test(
  'never lists a consumer for a person the client uploaded no consumer for',
  async ({ persons, consumers, data, config, clock }) => {
    const { unmatched, identificationTookMs } = await Given(
      'two available persons of the client, a consumer uploaded for the first and identified',
      async () => {
        const [matched, other] = await Promise.all([persons.createAvailable(), persons.createAvailable()]);
        const upload = await consumers.identify(data.consumer(matched.person.legalId));
        return { unmatched: other, identificationTookMs: clock.now() - upload.receivedAt };
      },
    );

    // No effect is waited for longer than the availability deadline, so no absence is watched for longer either: a
    // slow sandbox's queue can make the control take far longer than its effect did.
    const windowMs = Math.min(identificationTookMs, config.availabilityTimeoutMs);

    const listed = await When(
      'the client lists its consumers, every page, after waiting as long as that identification took ' +
        `(${windowMs} ms of ${identificationTookMs} ms, at most the availability deadline)`,
      () => consumers.watchForPerson('consumers', unmatched, windowMs),
    );

    await Then('no consumer for the second person is ever among them', () =>
      expectNoFact(
        listed,
        `a consumer for person ${unmatched.gedi} (legal id ${unmatched.person.legalId}), for whom none was ` +
          'uploaded, is listed',
      ),
    );
  },
);
