import type { ConsumerRecord, ConsumerStore, ConsumerUpload } from './consumers.js';
import { versionAt, marketOf, type PersonRecord, type PersonState, type PersonVersion } from './persons.js';
import { copyOf, type PersonView } from './person-queries.js';
import { readKeys } from './read-log.js';
import type { SimulatorState } from './state.js';

/** IDENTIFIED is the documented state; the others are the simulator's guesses. */
export type ConsumerState = 'PENDING' | 'IDENTIFIED' | 'UNIDENTIFIED';

export interface ConsumerView {
  record: ConsumerRecord;
  state: ConsumerState;
  gedi?: string;
}

export interface SubscriptionView {
  person: PersonView;
  subscribedAt: number;
  /** Order of the subscribing upload, the key lists are paged by. */
  seq: number;
}

/** Operation 5: stores the consumers; identification and subscription follow after their own delays. */
export function uploadConsumers(state: SimulatorState, clientId: string, uploads: ConsumerUpload[]): ConsumerRecord[] {
  const uploadedAt = state.now();
  refusingFor.get(state.consumers)?.delete(clientId);
  return uploads.map((upload) => {
    const identifyAt = uploadedAt + state.delays.next();
    return state.consumers.put({
      ...upload,
      clientId,
      uploadedAt,
      identifyAt,
      subscribeAt: identifyAt + state.delays.next(),
    });
  });
}

/** The person whose legal id matched, decided once at identification time against what was visible then. */
function matchOf(state: SimulatorState, record: ConsumerRecord): string | undefined {
  if (record.matchedGedi === undefined) {
    const match = state.persons.all().find((person) => matches(person, record));
    record.matchedGedi = match?.gedi ?? null;
  }
  return record.matchedGedi ?? undefined;
}

function matches(person: PersonRecord, consumer: ConsumerRecord): boolean {
  const seen = person.background ? undefined : versionAt(person, consumer.identifyAt)?.state;
  return seen !== undefined && marketOf(seen) === consumer.market && seen.fields.legalId === consumer.data.legalId;
}

export function consumerView(state: SimulatorState, record: ConsumerRecord): ConsumerView {
  if (state.now() < record.identifyAt) return { record, state: 'PENDING' };
  const gedi = matchOf(state, record);
  const identified = gedi ? !state.mutant('consumer-not-identified') : state.mutant('unknown-consumer-identified');
  return identified ? { record, state: 'IDENTIFIED', gedi } : { record, state: 'UNIDENTIFIED' };
}

/** The clients whose records a caller sees: itself, or everyone under the consumers-leak mutant. */
function visibleClients(state: SimulatorState, clientId: string): ReadonlySet<string> | 'all' {
  return state.mutant('consumers-leak') ? 'all' : new Set([clientId]);
}

/**
 * The client's custom persons that no consumer of it matched, each with its latest version visible
 * at `moment` (for the persons-listed-as-consumers and unsubscribed-persons-listed mutants). Their
 * sort keys are negative, below every upload's, so paging by key stays stable.
 */
function unmatchedPersons(state: SimulatorState, clientId: string, moment: 'visibleAt' | 'feedVisibleAt') {
  const matched = new Set(state.consumers.ofClients(new Set([clientId])).map((record) => record.matchedGedi));
  return state.persons.all().flatMap((person) => {
    const version =
      person.background || person.clientId !== clientId || matched.has(person.gedi)
        ? undefined
        : versionAt(person, state.now(), moment);
    return version?.state ? [{ person, version, state: version.state, seq: -person.versions[0]!.seq }] : [];
  });
}

const bySeq = <T extends { seq: number }>(a: T, b: T): number => a.seq - b.seq;

/** Operation 6, oldest first. */
export function listConsumers(state: SimulatorState, clientId: string): ConsumerView[] {
  const uploaded = state.consumers
    .ofClients(visibleClients(state, clientId))
    .map((record) => consumerView(state, record));
  const views = state.mutant('persons-listed-as-consumers')
    ? [
        ...unmatchedPersons(state, clientId, 'visibleAt').map(({ person, state: seen, seq }): ConsumerView => ({
          record: {
            clientId,
            consumerId: person.id,
            market: marketOf(seen),
            data: { legalId: seen.fields.legalId },
            seq,
            uploadedAt: 0,
            identifyAt: 0,
            subscribeAt: 0,
            matchedGedi: person.gedi,
          },
          state: 'IDENTIFIED',
          gedi: person.gedi,
        })),
        ...uploaded,
      ].sort((a, b) => bySeq(a.record, b.record))
    : uploaded;
  const listed = state.mutant('unmatched-consumers-not-listed')
    ? views.filter((view) => view.state === 'IDENTIFIED')
    : views;
  for (const view of listed) {
    if (view.state === 'IDENTIFIED' && view.record.uploadedAt > 0)
      state.reads.markRead(readKeys.consumer(view.record.clientId, view.record.consumerId), state.now());
  }
  return listed;
}

function firstDelivered(person: PersonRecord, now: number) {
  return person.versions.find((version) => version.feedVisibleAt <= now);
}

/** A subscribed person's entry: the person in `version`, with the copy its records carry. */
function subscriptionView(
  state: SimulatorState,
  person: PersonRecord,
  version: PersonVersion,
  seen: PersonState,
  at: { subscribedAt: number; seq: number },
): SubscriptionView {
  const { gedi } = person;
  const { version: number, writtenAt } = version;
  const view = { gedi, market: marketOf(seen), version: number, writtenAt, state: seen, ...copyOf(state, seen) };
  return { person: view, ...at };
}

/**
 * Operation 7, oldest subscription first: one entry per subscribed person, in the latest version
 * the subscription feed has delivered (or the first one, under the stale-subscription mutant).
 */
export function subscribedPersons(state: SimulatorState, clientId: string): SubscriptionView[] {
  const now = state.now();
  const seen = new Set<string>();
  const subscriptions: SubscriptionView[] = [];
  for (const record of state.consumers.ofClients(visibleClients(state, clientId))) {
    const gedi = now >= record.subscribeAt ? matchOf(state, record) : undefined;
    const person = gedi === undefined ? undefined : state.persons.byGedi(gedi);
    const key = `${record.clientId}\u0000${gedi}`;
    if (!person || seen.has(key) || (state.mutant('no-subscription') && !person.background)) continue;
    const version = state.mutant('stale-subscription')
      ? firstDelivered(person, now)
      : versionAt(person, now, 'feedVisibleAt');
    if (!version?.state) continue;
    seen.add(key);
    if (!person.background) state.reads.markRead(readKeys.subscription(record.clientId, person.gedi), now);
    subscriptions.push(
      subscriptionView(state, person, version, version.state, { subscribedAt: record.subscribeAt, seq: record.seq }),
    );
  }
  return subscriptions;
}

/** The client's persons that no consumer identified, as subscription entries (for the mutants that list them). */
export function unsubscribedPersons(state: SimulatorState, clientId: string): SubscriptionView[] {
  return unmatchedPersons(state, clientId, 'feedVisibleAt').map(({ person, version, state: seen, seq }) =>
    subscriptionView(state, person, version, seen, { subscribedAt: version.feedVisibleAt, seq }),
  );
}

/** Operation 7: the subscribed persons, and under the mutants that list them the unsubscribed ones by their seq. */
export function listSubscriptions(state: SimulatorState, clientId: string): SubscriptionView[] {
  const subscriptions = subscribedPersons(state, clientId);
  if (!state.mutant('unsubscribed-persons-listed', 'unsubscribed-listed-as-person-gedi')) return subscriptions;
  return [...unsubscribedPersons(state, clientId), ...subscriptions].sort(bySeq);
}

// Per consumer store, so that a reset forgets them: the clients whose subscription list the
// unknown-subscribed-list-refused mutant refuses.
const refusingFor = new WeakMap<ConsumerStore, Set<string>>();

/**
 * Under unknown-subscribed-list-refused: once a page has shown a subscription of a consumer uploaded after one that
 * matched no person, that consumer is subscribed too, and the client's subscription list is refused until its next
 * upload. A wait for the later subscription sees it; a later read of the whole list gets the refusal.
 */
export function noteShown(state: SimulatorState, clientId: string, view: SubscriptionView): void {
  if (!state.mutant('unknown-subscribed-list-refused')) return;
  const unknownBefore = state.consumers
    .ofClients(new Set([clientId]))
    .some((record) => record.seq < view.seq && state.now() >= record.identifyAt && !matchOf(state, record));
  if (!unknownBefore) return;
  const refusing = refusingFor.get(state.consumers) ?? new Set<string>();
  refusingFor.set(state.consumers, refusing.add(clientId));
}

/** Whether the client's subscription list is refused now (unknown-subscribed-list-refused). */
export function subscriptionsRefused(state: SimulatorState, clientId: string): boolean {
  return refusingFor.get(state.consumers)?.has(clientId) ?? false;
}
