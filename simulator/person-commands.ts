import { badRequest, HttpError, notFound } from './errors.js';
import { latestWrite, type Fields, type PersonRecord } from './persons.js';
import { personStateFrom } from './person-transitions.js';
import type { SimulatorState } from './state.js';

export interface PersonWrite {
  gedi: string;
  id: string;
  created: boolean;
}

/** Operation 1: creates the person of this id, or updates the same person (same gedi) when the id exists. */
export function putPerson(state: SimulatorState, clientId: string, body: Fields & { id: string }): PersonWrite {
  if (state.mutant('first-sample-rejected') && body.firstName !== undefined && body.firstNames === undefined) {
    throw badRequest('firstNames', 'is required');
  }
  checkMergeTarget(state, body);
  const next = personStateFrom(state, body);
  const foreign = state.persons.ofAnotherClient(clientId, body.id);
  if (foreign && state.mutant('update-crosses-clients')) {
    state.persons.append(foreign, next);
    return { gedi: foreign.gedi, id: body.id, created: false };
  }
  // One id space for every client (SIMULATOR_ID_SPACE=shared): an id another client uses is taken.
  if (foreign && state.options.idSpace === 'shared') {
    throw new HttpError(
      409,
      'id_taken',
      `id: ${JSON.stringify(body.id)} is the id of another client's sandbox person`,
      'id',
    );
  }
  const existing = state.persons.current(clientId, body.id);
  if (!existing || state.mutant('update-creates-new-gedi')) {
    return { gedi: state.persons.create(clientId, body.id, next).gedi, id: body.id, created: true };
  }
  if (!state.mutant('update-ignored')) state.persons.append(existing, next);
  return { gedi: existing.gedi, id: body.id, created: false };
}

function checkMergeTarget(state: SimulatorState, body: Fields): void {
  const target = (body.merged as { gedi?: string } | undefined)?.gedi;
  const known = target !== undefined && state.persons.exists(target) && !state.mutant('merge-rejected');
  if (target === undefined || known || state.mutant('merge-unknown-accepted')) return;
  throw new HttpError(
    422,
    'unknown_merge_target',
    `merged.gedi: no person with gedi ${JSON.stringify(target)} exists to merge into`,
    'merged.gedi',
  );
}

/**
 * Operation 2: a body with only `id` deletes the person; `removed: true` plus person fields marks
 * it removed (the sent fields update the stored ones). Anything else is ambiguous and rejected.
 */
export function deletePerson(state: SimulatorState, clientId: string, body: Fields & { id: string }): PersonWrite {
  const existing =
    state.persons.current(clientId, body.id) ??
    (state.mutant('delete-crosses-clients') ? state.persons.ofAnotherClient(clientId, body.id) : undefined);
  if (!existing) throw notFound(`id: no sandbox person with id ${JSON.stringify(body.id)}`);
  const result = { gedi: existing.gedi, id: body.id, created: false };
  if (Object.keys(body).length === 1) {
    if (!state.mutant('delete-does-nothing')) state.persons.append(existing, undefined);
    return result;
  }
  if (body.removed !== true) {
    throw badRequest(
      'removed',
      'send only id to delete the person, or removed: true with the person fields to mark it removed',
    );
  }
  if (state.mutant('removed-deletes-instead')) state.persons.append(existing, undefined);
  else state.persons.append(existing, removedState(state, existing, body));
  return result;
}

function removedState(state: SimulatorState, existing: PersonRecord, body: Fields) {
  const previous = latestWrite(existing).state;
  const sent = personStateFrom(state, body);
  return {
    ...previous,
    ...sent,
    fields: { ...previous?.fields, ...sent.fields },
    deregistered: sent.deregistered || (previous?.deregistered ?? false),
    removed: !state.mutant('removed-flag-dropped', 'removed-only-in-copy'),
  };
}
