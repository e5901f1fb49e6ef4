import type { Fields, PersonState } from './persons.js';
import type { SimulatorState } from './state.js';

/**
 * Turns a validated sandbox-person body into the state it leaves behind. The flag fields of the
 * request (deregistered, merged, relationship deaths) are consumed here and become evidence in the
 * stored state only when the transition applies, so a mutant that skips a transition leaves a
 * record without that evidence rather than a mere echo of the request.
 */
export function personStateFrom(state: SimulatorState, body: Fields): PersonState {
  const { removed: _removed, deregistered, merged, ...fields } = body;
  const deregisters = deregistered === true && !state.mutant('deregistered-dropped', 'deregistered-only-in-copy');
  const mergedInto = (merged as { gedi?: string } | undefined)?.gedi;
  return {
    fields: {
      ...(deregisters ? fields : withoutDeregistration(fields)),
      ...(Array.isArray(fields.relationshipList)
        ? { relationshipList: fields.relationshipList.map((entry: Fields) => relationshipFrom(state, entry)) }
        : {}),
    },
    removed: false,
    deregistered: deregisters,
    ...(mergedInto !== undefined && !state.mutant('merge-ignored', 'merge-only-in-copy') ? { mergedInto } : {}),
    sent: body,
  };
}

function withoutDeregistration(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !name.startsWith('deregistered')));
}

/**
 * A related person is shown deceased when a death date (or deceased) was sent, deregistered when deregistered was sent.
 */
function relationshipFrom(state: SimulatorState, entry: Fields): Fields {
  const { dateOfDeath, deceased, deregistered, deregisteredReason, ...rest } = entry;
  const dies =
    (dateOfDeath !== undefined || deceased === true) &&
    !state.mutant('relationship-death-ignored', 'relationship-death-only-in-copy');
  const deregisters =
    deregistered === true &&
    !state.mutant('relationship-deregistration-ignored', 'relationship-deregistration-only-in-copy');
  return {
    ...rest,
    ...(dies && dateOfDeath !== undefined ? { dateOfDeath } : {}),
    deceased: dies,
    deregistered: deregisters,
    ...(deregisters && deregisteredReason !== undefined ? { deregisteredReason } : {}),
  };
}
