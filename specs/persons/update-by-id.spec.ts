/**
 * Sandbox person management v1 — rule 1 of the Endpoints section.
 *
 * > Operation 1 with an existing `id` updates the same person; operations 1 and 2 address the
 * > person by `id`.
 *
 * Not asserted (not shown): whether the update replaces or merges fields left out of the second
 * PUT (the second PUT sends the whole person), the status code, how soon the change is visible.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { ownsValue } from '../../support/readings/facts.js';

rule('person.update-by-id').test(
  'updates the same person, keeping its gedi, when the id already exists',
  async ({ persons, data }) => {
    const original = await Given('an available person', () => persons.createAvailable());
    const changed = { ...original.person, familyName: data.familyName(original.person) };

    const updated = await When('the client PUTs the same id with a new family name', () => persons.store(changed));

    await Then('the answer names the same gedi', async () => {
      expect(updated.gedi, 'a PUT with an existing id answers the gedi of that person').toBe(original.gedi);
    });
    await Then('the new family name becomes visible on that gedi', () =>
      persons.awaitRetrievable(
        original,
        `to show the family name ${changed.familyName}`,
        (record) => ownsValue(record, changed.familyName),
        'update',
      ),
    );
  },
);
