import { HttpError, notFound } from './errors.js';
import type { MutantName } from './mutants.js';
import {
  marketOf,
  versionAt,
  type Fields,
  type PersonRecord,
  type PersonState,
  type PersonVersion,
} from './persons.js';
import { readKeys } from './read-log.js';
import type { SimulatorState } from './state.js';

/** One visible version of a person, as every layout renders it. */
export interface PersonView {
  gedi: string;
  market: string;
  version: number;
  /** When this version was written (epoch ms). */
  writtenAt: number;
  state: PersonState;
  /** The copy of the last body written, as sent, that records carry beside their own fields (`lastWrite`). */
  lastWrite?: Fields;
}

/** Operation 3's answer before a person is available, where the simulator answers a placeholder instead of 404. */
export interface Pending {
  pending: true;
  gedi: string;
}

// The mutants that ignore a transition on the record while its copy of the request holds the marks as sent.
const COPY_MUTANTS: MutantName[] = [
  'removed-only-in-copy',
  'deregistered-only-in-copy',
  'merge-only-in-copy',
  'relationship-death-only-in-copy',
  'relationship-deregistration-only-in-copy',
];

/** The `lastWrite` copy a record of this version carries, where records carry one. */
export function copyOf(state: SimulatorState, person: PersonState): Pick<PersonView, 'lastWrite'> {
  const carried = state.options.requestCopyInRecords || state.mutant(...COPY_MUTANTS);
  return carried && person.sent !== undefined ? { lastWrite: person.sent } : {};
}

/** The version a client read may see now; custom persons never surface under the never-available mutant. */
function visibleVersion(state: SimulatorState, record: PersonRecord) {
  if (state.mutant('never-available') && !record.background) return undefined;
  return versionAt(record, state.now());
}

function viewed(
  state: SimulatorState,
  record: PersonRecord,
  { version, writtenAt }: PersonVersion,
  person: PersonState,
): PersonView {
  if (!record.background) state.reads.markRead(readKeys.person(record.gedi, version), state.now());
  return { gedi: record.gedi, market: marketOf(person), version, writtenAt, state: person, ...copyOf(state, person) };
}

/**
 * Operation 3. Not yet visible (or another market, where one is asked for): 404, or a placeholder
 * with `placeholdersBeforeAvailable` (always, for a custom person, under placeholders-forever). Deleted:
 * a `gone` error the layout renders (404 or 410). With `mergesShownByTarget`, a merged-away gedi answers
 * as the gedi it was merged into does: one step only, so that two persons merged into each other
 * cannot loop.
 */
export function readPerson(state: SimulatorState, market: string | undefined, gedi: string): PersonView | Pending {
  const view = ownRecord(state, market, gedi);
  const target = 'pending' in view ? undefined : view.state.mergedInto;
  return target !== undefined && state.options.mergesShownByTarget ? ownRecord(state, market, target) : view;
}

function ownRecord(state: SimulatorState, market: string | undefined, gedi: string): PersonView | Pending {
  const record = state.persons.byGedi(gedi);
  const forever = state.mutant('placeholders-forever') && record?.background === false;
  const version = record && !forever ? visibleVersion(state, record) : undefined;
  if (record && !version && (forever || state.options.placeholdersBeforeAvailable)) return { pending: true, gedi };
  if (!record || !version || (version.state && market !== undefined && marketOf(version.state) !== market)) {
    throw notFound(
      `no person with gedi ${JSON.stringify(gedi)}${market === undefined ? '' : ` in market ${market}`} (yet)`,
    );
  }
  if (!version.state) throw new HttpError(404, 'gone', `the person with gedi ${JSON.stringify(gedi)} was deleted`);
  return viewed(state, record, version, version.state);
}

/** Operation 4: visible, not deleted custom persons of the market with this legal id. */
export function findPersons(state: SimulatorState, market: string, legalId: string): PersonView[] {
  const ignoreLegalId = state.mutant('find-ignores-legal-id');
  const found = state.persons.all().flatMap((record) => {
    const version = record.background ? undefined : visibleVersion(state, record);
    const person = version?.state;
    if (!version || !person || marketOf(person) !== market) return [];
    if (!ignoreLegalId && person.fields.legalId !== legalId) return [];
    return [viewed(state, record, version, person)];
  });
  // First, so that a layout answering one person shows a wrong one rather than hiding the others.
  return found.length > 0 && state.mutant('find-adds-other-persons')
    ? [...otherPersons(state, market, legalId, 2), ...found]
    : found;
}

/** Persons of the market with another legal id, background ones first (no test person of a run is among them). */
function otherPersons(state: SimulatorState, market: string, legalId: string, count: number): PersonView[] {
  const records = state.persons.all().sort((a, b) => Number(b.background) - Number(a.background));
  const others = records.flatMap((record) => {
    const version = versionAt(record, state.now());
    const person = version?.state;
    return version && person && marketOf(person) === market && person.fields.legalId !== legalId
      ? [{ record, version, person }]
      : [];
  });
  return others.slice(0, count).map(({ record, version, person }) => viewed(state, record, version, person));
}
