/**
 * Sandbox person management v1 — the first documented sample (Resources and their fields).
 *
 * > Every sample sent `id`, `country`, `legalId` and `dateOfBirth` for persons, except the first
 * > sandbox person example, which used `firstName` instead of `firstNames`.
 *
 * A refusal of this PUT breaks this rule, and the failure quotes what the answer said it refused;
 * an accepted answer without a gedi is rule person.create-returns-gedi's break (a precondition here).
 * Not asserted (not shown): how the service stores a single first name next to `firstNames`.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { reading } from '../../support/readings/facts.js';
import { containsValue } from '../../support/readings/json.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('person.first-sample-accepted').test(
  'accepts a person sent with firstName instead of firstNames, as in the first sample',
  async ({ persons, data }) => {
    const person = await Given('a person shaped like the first documented sample', async () =>
      data.firstSamplePerson(),
    );

    const response = await When('the client PUTs it', () => persons.put(person));

    const stored = await Then('the sandbox accepts it and answers its gedi', async () => {
      expectAccepted(response, 'the PUT');
      return persons.acknowledged(person, response);
    });
    // A layout may keep it as sent or as the one name of a firstNames list: anywhere in the person's record counts.
    const firstName = person.firstName!;
    await Then('the person becomes available with that first name', () =>
      persons.awaitRetrievable(stored, `to show the first name ${firstName}`, (record) =>
        reading(
          containsValue(record, firstName) ? [`the record holds ${JSON.stringify(firstName)}`] : [],
          `the person's own record for ${JSON.stringify(firstName)}`,
          'not in the record',
        ),
      ),
    );
  },
);
