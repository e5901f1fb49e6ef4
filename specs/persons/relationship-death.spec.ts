/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | an element of `relationshipList` has `dateOfDeath` | The related person
 * > is marked deceased
 *
 * The related person is identified by its own legal id; the mark is read on the relative's own entry
 * (the list entry of the record that carries that legal id), never on the person, another relative or a
 * copy of the request (docs/DESIGN.md, "The rule of evidence"). The documented relationship field
 * `deceased` (or a DECEASED status), which the client did not send, is preferred; the `dateOfDeath` the
 * client sent counts too, on that entry: no response shape is documented, and a service that keeps the
 * person as sent keeps this rule. A `deceased: false` on the entry outranks it.
 * The person is available first, so the PUT under test differs from one the sandbox already
 * accepted only in what this rule is about: a refusal of it is this rule's break.
 * Not asserted (not shown): whether the related person also becomes a person of its own, whether
 * the date of death is echoed.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';

rule('transition.relationship-death').test(
  'marks the related person deceased when its relationship has a dateOfDeath',
  async ({ persons, data, facts }) => {
    const stored = await Given('an available person with a parent', () => persons.createAvailable());
    const relative = { ...stored.person.relationshipList![0]!, dateOfDeath: data.pastDate() };

    const sent = { ...stored.person, relationshipList: [relative] };
    const written = await When('the client PUTs the person again, with a date of death for that parent', () =>
      persons.store(sent),
    );

    const legalId = relative.legalId!.socialSecurityNumber!;
    await Then('the related person is eventually shown deceased', () =>
      persons.awaitRetrievable(
        written,
        `to show the relative ${legalId} deceased`,
        facts.reading('relative.deceased', { sent, relative: legalId }),
        'relationship-death',
      ),
    );
  },
);
