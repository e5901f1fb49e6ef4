import { consumerView } from './consumer-ops.js';
import { latestWrite, marketOf, type PersonRecord } from './persons.js';
import { readKeys } from './read-log.js';
import type { SimulatorState } from './state.js';

// What the control surface reports, kept apart from its routes so it reads as plain data.

export function requestReport(state: SimulatorState) {
  return {
    counts: Object.fromEntries(state.requests.counts),
    tokensIssued: state.tokens.issued,
    faultsInjected: state.requests.faultsInjected,
    throttled: state.requests.throttled,
  };
}

const custom = (state: SimulatorState): PersonRecord[] => state.persons.all().filter((record) => !record.background);

/** Custom persons whose latest write is not a deletion, across all clients (for leak checks). */
export function storedPersons(state: SimulatorState) {
  return custom(state).flatMap((record) => {
    const latest = latestWrite(record);
    if (!latest.state) return [];
    return [
      {
        clientId: record.clientId,
        id: record.id,
        gedi: record.gedi,
        market: marketOf(latest.state),
        version: latest.version,
        removed: latest.state.removed,
      },
    ];
  });
}

/** Per effect: when it became (or will become) visible and when a client read first returned it. */
export function visibilityReport(state: SimulatorState) {
  const now = state.now();
  const persons = custom(state).flatMap((record) =>
    record.versions.map((version) => ({
      kind: version.state ? 'person-version' : 'person-deletion',
      clientId: record.clientId,
      gedi: record.gedi,
      version: version.version,
      writtenAt: version.writtenAt,
      visibleAt: version.visibleAt,
      feedVisibleAt: version.feedVisibleAt,
      firstReadAt: state.reads.firstReadAt(readKeys.person(record.gedi, version.version)),
    })),
  );
  const consumers = state.consumers
    .ofClients('all')
    .filter((record) => record.uploadedAt > 0)
    .flatMap((record) => {
      const view = consumerView(state, record);
      const identification = {
        kind: 'consumer-identification',
        clientId: record.clientId,
        consumerId: record.consumerId,
        state: view.state,
        writtenAt: record.uploadedAt,
        visibleAt: record.identifyAt,
        firstReadAt: state.reads.firstReadAt(readKeys.consumer(record.clientId, record.consumerId)),
      };
      if (!view.gedi) return [identification];
      const subscription = {
        kind: 'subscription',
        clientId: record.clientId,
        gedi: view.gedi,
        writtenAt: record.uploadedAt,
        visibleAt: record.subscribeAt,
        firstReadAt: state.reads.firstReadAt(readKeys.subscription(record.clientId, view.gedi)),
      };
      return [identification, subscription];
    });
  return { now, records: [...persons, ...consumers] };
}
