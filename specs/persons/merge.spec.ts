/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | `merged.gedi` names an existing person (that gedi must already exist) |
 * > Person is merged into that person
 *
 * Not asserted (not shown): how a merged person is presented. Either of two readings counts as
 * "merged": the source record names the target gedi under a merge field of its own (`merged.gedi`,
 * `mergedInto`, …), or the source gedi now resolves to the target's own record: one whose own gedi
 * is the target's or, where it names no gedi (the vendor's v3 record has none), whose own legal id
 * is the target's and not the source's. The target gedi or legal id elsewhere (a relative's entry)
 * is no evidence. A record that names no gedi and is still the source's own (a `merged: true` beside
 * the source's legal id) does not say into whom: it cannot show this merge. Nor is the status of the
 * rejection shown: any 4xx counts.
 */
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { mergedInto } from '../../support/readings/facts.js';
import { expectRejected } from '../../support/evidence/expectations.js';

rule('transition.merge').test('merges a person into an existing person named by merged.gedi', async ({ persons }) => {
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
      (record) => mergedInto(record, source, target),
      'merge',
    ),
  );
});

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
