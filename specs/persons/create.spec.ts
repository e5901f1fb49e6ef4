/**
 * Sandbox person management v1 — operation 1, and rule 2 of the Endpoints section.
 *
 * > PUT {base_url}/consumer-intelligence/sandbox/v1/persons — Contains the `gedi` of the person.
 * > Person creation is asynchronous: operation 3 may fail to return the person until it is
 * > available; the client retries later.
 *
 * Not asserted, because the documentation does not show it: the status code of the PUT (any 2xx),
 * where in the response the gedi sits, the shape of the person record, the status returned while
 * the person is not yet available (any but 400, 401 and 403, which end every wait), and how long
 * that takes (bounded only by CONTRACT_AVAILABILITY_TIMEOUT_MS). A record that names the gedi and
 * nothing of the person beyond identifiers and a state (`{ "gedi": …, "status": "PENDING" }`) is a
 * placeholder: not yet available.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';

rule('person.create-returns-gedi').test('answers a new sandbox person with its gedi', async ({ persons, data }) => {
  const person = await Given(
    'a new custom person: names, birth date, an address, a phone, citizenship, a parent',
    async () => data.person(),
  );

  const stored = await When('the client PUTs the person', () => persons.store(person));

  await Then('the response contains a gedi for it', async () => {
    expect(stored.gedi, 'the gedi is a non-empty string').toMatch(/\S/);
  });
});

rule('person.eventually-available').test(
  'makes a new person retrievable by gedi within the market and findable by legal id, eventually',
  async ({ persons, facts }) => {
    const stored = await Given('a person that was just created', () => persons.create());

    // The client's retries are the wait itself: the Then that waits is the verdict.
    await Then("operation 3, retried, eventually returns the person's own record by its gedi", () =>
      persons.awaitRecord(
        stored.gedi,
        `(id ${stored.person.id}) to be retrievable by gedi as its own record`,
        (record) => facts.ownRecord(record, stored),
        'create',
      ),
    );
    await Then('operation 4 finds it by its legal id', () => persons.awaitFindable(stored));
  },
);
