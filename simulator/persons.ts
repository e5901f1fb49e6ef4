import type { SimulatorClock } from './clock.js';

export type Fields = Record<string, unknown>;

/** What one version of a person holds. The flags are set only by the transitions that apply them. */
export interface PersonState {
  fields: Fields;
  removed: boolean;
  deregistered: boolean;
  mergedInto?: string;
  /** The body of the write that left this version, as the client sent it (storeAsSent, the records' copy). */
  sent?: Fields;
}

export interface PersonVersion {
  /** Global write order: the highest visible seq wins, so a slow early write never hides a later one. */
  seq: number;
  version: number;
  writtenAt: number;
  /** When GET and _find start to return it. */
  visibleAt: number;
  /** When subscription lists start to return it (a separate feed with its own delay). */
  feedVisibleAt: number;
  /** undefined: the person was deleted in this version. */
  state: PersonState | undefined;
}

export interface PersonRecord {
  gedi: string;
  clientId: string;
  id: string;
  /** Pre-seeded list filler: never matched by _find or consumer identification. */
  background: boolean;
  versions: PersonVersion[];
}

export interface Delays {
  /** A fresh jittered delay for one effect. */
  next(): number;
}

export function marketOf(state: PersonState): string {
  return typeof state.fields.country === 'string' ? state.fields.country : 'SE';
}

/** The latest version whose chosen moment has come. */
export function versionAt(
  record: PersonRecord,
  time: number,
  moment: 'visibleAt' | 'feedVisibleAt' = 'visibleAt',
): PersonVersion | undefined {
  let latest: PersonVersion | undefined;
  for (const version of record.versions) {
    if (version[moment] <= time && (!latest || version.seq > latest.seq)) latest = version;
  }
  return latest;
}

/** The register of persons, each kept as its full version history so reads can lag behind writes. */
export class PersonRegister {
  private readonly records = new Map<string, PersonRecord>();
  private seq = 0;

  constructor(
    private readonly clock: SimulatorClock,
    private readonly delays: Delays,
    private readonly newGedi: () => string,
  ) {}

  /** The client's person with this id unless its latest write (visible or not) deleted it. */
  current(clientId: string, id: string): PersonRecord | undefined {
    for (const record of this.records.values()) {
      if (record.clientId === clientId && record.id === id && !record.background && latestWrite(record).state)
        return record;
    }
    return undefined;
  }

  /** Another client's person with this id unless its latest write deleted it. */
  ofAnotherClient(clientId: string, id: string): PersonRecord | undefined {
    for (const record of this.records.values()) {
      if (record.clientId !== clientId && record.id === id && !record.background && latestWrite(record).state)
        return record;
    }
    return undefined;
  }

  /** A person that exists and is not deleted, whether or not it is visible yet. */
  exists(gedi: string): boolean {
    const record = this.records.get(gedi);
    return record !== undefined && latestWrite(record).state !== undefined;
  }

  byGedi(gedi: string): PersonRecord | undefined {
    return this.records.get(gedi);
  }

  all(): PersonRecord[] {
    return [...this.records.values()];
  }

  create(clientId: string, id: string, state: PersonState, background = false): PersonRecord {
    const record: PersonRecord = { gedi: this.newGedi(), clientId, id, background, versions: [] };
    this.records.set(record.gedi, record);
    if (background)
      record.versions.push({ seq: ++this.seq, version: 1, writtenAt: 0, visibleAt: 0, feedVisibleAt: 0, state });
    else this.append(record, state);
    return record;
  }

  append(record: PersonRecord, state: PersonState | undefined): PersonVersion {
    const writtenAt = this.clock.now();
    const version: PersonVersion = {
      seq: ++this.seq,
      version: record.versions.length + 1,
      writtenAt,
      visibleAt: writtenAt + this.delays.next(),
      feedVisibleAt: writtenAt + this.delays.next(),
      state,
    };
    record.versions.push(version);
    return version;
  }
}

export function latestWrite(record: PersonRecord): PersonVersion {
  return record.versions.reduce((latest, version) => (version.seq > latest.seq ? version : latest));
}
