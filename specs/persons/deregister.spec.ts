/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | `deregistered` is true, optional `deregisteredReason` | Person is marked
 * > deregistered
 *
 * The mark is read where the target's reviewed layout file says `person.deregistered` lives, and nothing else
 * (docs/DESIGN.md, "Strict readings"); where it moved, the failure is Layout changed, not this rule. A
 * location learned as the client's own value shown back (`by: as-sent`) passes and is reported apart.
 * Not asserted (not shown): the allowed reasons, how the mark is spelled in the record, whether the date
 * fields are echoed.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { ownsValue } from '../../support/readings/facts.js';
import { expectFact } from '../../support/evidence/expectations.js';

rule('transition.deregister').test(
  'marks the person deregistered, with the reason given',
  async ({ persons, data, facts }) => {
    const stored = await Given('an available person', () => persons.createAvailable());
    const reason = data.deregistrationReason();

    const sent = {
      ...stored.person,
      deregistered: true,
      deregisteredReason: reason,
      deregisteredDate: data.pastDate(),
    };
    await When('the client PUTs the person with deregistered true and a reason', () => persons.store(sent));

    const { record } = await Then('the person itself is eventually shown deregistered', () =>
      persons.awaitRetrievable(
        stored,
        'to be marked deregistered',
        facts.reading('person.deregistered', { sent, ...persons.withControl(stored) }),
        'update',
      ),
    );
    await Then('the record carries the reason', () =>
      expectFact(ownsValue(record, reason), `the record carries the reason "${reason}"`),
    );
  },
);
