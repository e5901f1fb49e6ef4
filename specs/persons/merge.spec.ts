/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | `merged.gedi` names an existing person (that gedi must already exist) |
 * > Person is merged into that person
 *
 * Not asserted (not shown): how a merged person is presented. The merge is read where the target's
 * reviewed layout file says `person.merged` lives, and nothing else (docs/DESIGN.md, "Strict readings"):
 * a merge field naming the target (`mergedInto.gedi = target.gedi`), or the source gedi answering the
 * target's own record (`legalId.identityNumber = target.legalId`), as learned. Where it moved, the failure
 * is Layout changed; the `merged.gedi` shown back as sent (`by: as-sent`) passes and is reported apart.
 * Nor is the status of the rejection shown: any 4xx counts.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectRejected } from '../../support/evidence/expectations.js';

rule('transition.merge').test(
  'merges a person into an existing person named by merged.gedi',
  async ({ persons, facts }) => {
    const [target, source] = await Given('two available persons', () =>
      Promise.all([persons.createAvailable(), persons.createAvailable()]),
    );

    const sent = { ...source.person, merged: { gedi: target.gedi } };
    await When('the client PUTs the second person with merged.gedi naming the first', () => persons.store(sent));

    await Then('the second person is eventually shown merged into the first', () =>
      persons.awaitRecord(
        source.gedi,
        `to be merged into ${target.gedi}`,
        facts.reading('person.merged', { sent, source, target, ...persons.withControl(source) }),
        'merge',
      ),
    );
  },
);

rule('transition.merge-unknown-rejected').test(
  'rejects a merge into a gedi that does not exist',
  async ({ persons, data }) => {
    const stored = await Given('an available person', () => persons.createAvailable());
    const unknownGedi = data.unknownGedi(stored.gedi);

    const response = await When(`the client PUTs it with merged.gedi naming ${unknownGedi}, which no person has`, () =>
      persons.put({ ...stored.person, merged: { gedi: unknownGedi } }, 'PUT with an unknown merge target'),
    );

    await Then('the PUT is rejected with a 4xx', async () => {
      expectRejected(response, 'a merge into an unknown gedi');
    });
  },
);
