import type { Fields } from './persons.js';

export interface ConsumerRecord {
  clientId: string;
  consumerId: string;
  market: string;
  data: Fields;
  /** Upload order across all clients; lists are ordered by it. */
  seq: number;
  uploadedAt: number;
  /** When the identification outcome becomes visible. */
  identifyAt: number;
  /** When the subscription of an identified consumer becomes visible. */
  subscribeAt: number;
  /** The matched person, once decided (null: no person matched). Fixed from the start for background records. */
  matchedGedi?: string | null;
}

export type ConsumerUpload = Pick<ConsumerRecord, 'consumerId' | 'market' | 'data'>;

/** Uploaded consumers, one entry per client and consumerId (a re-upload replaces the entry). */
export class ConsumerStore {
  private readonly records = new Map<string, ConsumerRecord>();
  private seq = 0;

  put(record: Omit<ConsumerRecord, 'seq'>): ConsumerRecord {
    const key = `${record.clientId}\u0000${record.consumerId}`;
    this.records.delete(key);
    const stored = { ...record, seq: ++this.seq };
    this.records.set(key, stored);
    return stored;
  }

  /** Oldest first. */
  ofClients(clientIds: ReadonlySet<string> | 'all'): ConsumerRecord[] {
    return [...this.records.values()].filter((record) => clientIds === 'all' || clientIds.has(record.clientId));
  }
}
