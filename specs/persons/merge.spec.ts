/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | `merged.gedi` names an existing person (that gedi must already exist) |
 * > Person is merged into that person
 *
 * Not asserted (not shown): how a merged person is presented. Evidence the server made is preferred
 * (docs/DESIGN.md, "The rule of evidence"): the source gedi answers the target's own record (one whose own
 * gedi is the target's or, where it names no gedi as the vendor's v3 record does, whose own legal id is the
 * target's and not the source's), or a merge field the client does not send (`mergedInto`) names the
 * target. The `merged.gedi` the client sent counts too, on the source's own record: no response shape is
 * documented, and a service that keeps the person as sent keeps this rule. The evidence line says which
 * counted. The target elsewhere (a relative's entry, a copy of the request beside the record) is no
 * evidence, and a record that says it is not merged outranks a merge field. A record that names no gedi and
 * is still the source's own (a `merged: true` beside the source's legal id) does not say into whom: it
 * cannot show this merge. Nor is the status of the rejection shown: any 4xx counts.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { expectRejected } from '../../support/evidence/expectations.js';

rule('transition.merge').test(
  'merges a person into an existing person named by merged.gedi',
  async ({ persons, facts }) => {
    const [target, source] = await Given('two available persons', () =>
      Promise.all([persons.createAvailable(), persons.createAvailable()]),
    );

    await When('the client PUTs the second person with merged.gedi naming the first', () =>
      persons.store({ ...source.person, merged: { gedi: target.gedi } }),
    );

    await Then('the second person is eventually shown merged into the first', () =>
      persons.awaitRecord(
        source.gedi,
        `to be merged into ${target.gedi}`,
        facts.reading('person.merged', { source, target }),
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
