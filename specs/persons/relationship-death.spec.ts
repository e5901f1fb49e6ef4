/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | an element of `relationshipList` has `dateOfDeath` | The related person
 * > is marked deceased
 *
 * The related person is the list entry carrying its own legal id; the mark is read where the target's
 * reviewed layout file says `relative.deceased` lives on that entry, and nothing else (docs/DESIGN.md,
 * "Strict readings"): beside computed relations, the list as sent is no evidence. Where the location
 * moved, the failure is Layout changed; a location learned `by: as-sent` passes and is reported apart.
 * The person is available first, so the PUT under test differs from one the sandbox already
 * accepted only in what this rule is about: a refusal of it is this rule's break.
 * Not asserted (not shown): whether the related person also becomes a person of its own, whether
 * the date of death is echoed.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
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
        facts.reading('relative.deceased', {
          sent,
          relative: legalId,
          ...persons.withControl(stored, { relative: true }),
        }),
        'relationship-death',
      ),
    );
  },
);
