import type { ConsumerRecord, ConsumerUpload } from './consumers.js';
import { versionAt, marketOf, type PersonRecord } from './persons.js';
import type { PersonView } from './person-queries.js';
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

/**
 * Operation 7, oldest subscription first: one entry per subscribed person, in the latest version
 * the subscription feed has delivered (or the first one, under the stale-subscription mutant).
 */
export function listSubscriptions(state: SimulatorState, clientId: string): SubscriptionView[] {
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
    subscriptions.push({
      person: {
        gedi: person.gedi,
        market: marketOf(version.state),
        version: version.version,
        writtenAt: version.writtenAt,
        state: version.state,
      },
      subscribedAt: record.subscribeAt,
      seq: record.seq,
    });
  }
  if (!state.mutant('unsubscribed-persons-listed')) return subscriptions;
  const unsubscribed = unmatchedPersons(state, clientId, 'feedVisibleAt').map(
    ({ person, version, state: seen, seq }): SubscriptionView => ({
      person: {
        gedi: person.gedi,
        market: marketOf(seen),
        version: version.version,
        writtenAt: version.writtenAt,
        state: seen,
      },
      subscribedAt: version.feedVisibleAt,
      seq,
    }),
  );
  return [...unsubscribed, ...subscriptions].sort(bySeq);
}
