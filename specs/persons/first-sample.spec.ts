/**
 * Sandbox person management v1 — the first documented sample (Resources and their fields).
 *
 * > Every sample sent `id`, `country`, `legalId` and `dateOfBirth` for persons, except the first
 * > sandbox person example, which used `firstName` instead of `firstNames`.
 *
 * Not asserted (not shown): how the service stores a single first name next to `firstNames`.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { containsValue } from '../../support/readings/lookup.js';
import { gediIn } from '../../support/verbs/persons.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('person.first-sample-accepted').test('accepts a person sent with firstName instead of firstNames, as in the first sample', async ({ persons, data }) => {
  const person = await Given('a person shaped like the first documented sample', async () => data.firstSamplePerson());

  const response = await When('the client PUTs it', () => persons.put(person));

  const gedi = await Then('the sandbox accepts it and answers its gedi', async () => {
    expectAccepted(response, 'the PUT');
    const answered = gediIn(response.body);
    expect(answered, 'the PUT response contains a gedi').toBeTypeOf('string');
    return answered!;
  });
  await Then('the person becomes available with that first name', () =>
    persons.awaitRetrievable({ person, gedi, acknowledgedAt: response.receivedAt }, `to show the first name ${person.firstName}`, (record) => containsValue(record, person.firstName!)),
  );
});
