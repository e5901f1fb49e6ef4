/**
 * Sandbox person management v1 — States and transitions.
 *
 * > PUT sandbox person | `deregistered` is true, optional `deregisteredReason` | Person is marked
 * > deregistered
 *
 * The mark is read on the person's own record, never a relative's or a copy of the request beside it
 * (docs/DESIGN.md, "The rule of evidence"). A state the server computed (a DEREGISTERED status,
 * `status.deregistered`) is preferred; the `deregistered: true` the client sent counts too, on the record
 * itself: no response shape is documented, and a service that keeps the person as sent and answers it from
 * operation 3 keeps this rule.
 * Not asserted (not shown): the allowed reasons, how the mark is spelled in the record, whether the date
 * fields are echoed.
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
        facts.reading('person.deregistered', { sent }),
        'update',
      ),
    );
    await Then('the record carries the reason', () =>
      expectFact(ownsValue(record, reason), `the record carries the reason "${reason}"`),
    );
  },
);
