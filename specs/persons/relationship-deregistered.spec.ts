/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | an element of `relationshipList` has `deregistered` true | The related
 * > person is marked deregistered
 *
 * The related person is the list entry carrying its own legal id; the mark is read where the target's
 * reviewed layout file says `relative.deregistered` lives on that entry, and nothing else (docs/DESIGN.md,
 * "Strict readings"). Where the location moved, the failure is Layout changed; a location learned
 * `by: as-sent` passes and is reported apart.
 * The person is available first, so the PUT under test differs from one the sandbox already
 * accepted only in what this rule is about: a refusal of it is this rule's break.
 * Not asserted (not shown): the reason values, whether the related person becomes a person of its own.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';

rule('transition.relationship-deregistered').test(
  'marks the related person deregistered when its relationship says deregistered',
  async ({ persons, data, facts }) => {
    const stored = await Given('an available person with a parent', () => persons.createAvailable());
    const relative = {
      ...stored.person.relationshipList![0]!,
      deregistered: true,
      deregisteredReason: data.deregistrationReason(),
    };

    const sent = { ...stored.person, relationshipList: [relative] };
    const written = await When('the client PUTs the person again, with that parent deregistered', () =>
      persons.store(sent),
    );

    const legalId = relative.legalId!.socialSecurityNumber!;
    await Then('the related person is eventually shown deregistered', () =>
      persons.awaitRetrievable(
        written,
        `to show the relative ${legalId} deregistered`,
        facts.reading('relative.deregistered', {
          sent,
          relative: legalId,
          ...persons.withControl(stored, { relative: true }),
        }),
        'relationship-deregistration',
      ),
    );
  },
);
