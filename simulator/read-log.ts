/**
 * When a client read first returned each record, so notice lag (first read minus the moment the
 * record became visible) can be measured from outside.
 */
export class ReadLog {
  private readonly firstReads = new Map<string, number>();

  markRead(key: string, now: number): void {
    if (!this.firstReads.has(key)) this.firstReads.set(key, now);
  }

  firstReadAt(key: string): number | null {
    return this.firstReads.get(key) ?? null;
  }
}

export const readKeys = {
  person: (gedi: string, version: number) => `person:${gedi}:${version}`,
  consumer: (clientId: string, consumerId: string) => `consumer:${clientId}:${consumerId}`,
  subscription: (clientId: string, gedi: string) => `subscription:${clientId}:${gedi}`,
};
