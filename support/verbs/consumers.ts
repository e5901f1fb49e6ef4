// Owns the consumer data verbs: operations 5–7 for one client (upload, list consumers, list subscribed persons).
import type { ContractConfig } from '../run/config.js';
import { NotSentError, type ApiClient, type ApiResponse, type RequestOptions } from '../transport/http.js';
import type { Consumer } from '../data/factories.js';
import type { Shown, StoredPerson } from './persons.js';
import { eventually, NotConsistentError, watch, type Transition } from '../readings/eventually.js';
import { ListIncompleteError, readPages, type ListRead } from '../readings/list-reader.js';
import { identified, listsPerson, reading, recordsOwning, type Reading } from '../readings/facts.js';
import { expectSchema } from '../readings/schemas.js';
import { expectAccepted } from '../evidence/expectations.js';
import { attachJson } from '../evidence/report.js';
import { OtherRuleFailure } from '../evidence/failures.js';

/** Each list's path setting and operation; its reads' purpose is `list <name>`. */
const LISTS = {
  consumers: { path: 'consumers', operation: 'op6' },
  'subscribed persons': { path: 'subscribedPersons', operation: 'op7' },
} as const;
type ListName = keyof typeof LISTS;

/** A list read that failed after its first page never saw the rest of the list. */
const incomplete = (path: string, { paging, status }: ListRead) =>
  new ListIncompleteError(path, paging.convention, paging.pages, `page ${paging.pages + 1} answered ${status}`);

/** What a wait reads on a list's record of its own: a fact of its (IDENTIFIED, a family name). */
type ItemReading = (item: unknown) => Reading;

/** The record of a list that carries `value` as a field of its own. */
const ownRecord = (body: unknown, value: string): unknown => recordsOwning(body, value)[0]?.item;

/**
 * Operations 5–7 for one client. The order and parameters of the lists are not documented, so a record can be on any
 * page: a look for it reads until it is found; a check that it is absent reads every page, or fails as incomplete.
 */
export class ConsumerData {
  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
  ) {}

  /** The same operations acting as another client (isolation checks). */
  as(api: ApiClient): ConsumerData {
    return new ConsumerData(api, this.config);
  }

  /** Operation 5. */
  upload(consumers: Consumer[]): Promise<ApiResponse> {
    expectSchema('consumer-upload', consumers);
    const options = { json: consumers, operation: 'op5', purpose: 'upload consumers' };
    return this.api.request('POST', this.config.paths.consumers, options);
  }

  /** Where a list is served and how its reads are published, with the page size when one is set. */
  private listAt(list: ListName): { path: string; options: RequestOptions } {
    const { pageSize, paths } = this.config;
    const query = pageSize ? { [pageSize.parameter]: String(pageSize.size) } : undefined;
    const { path, operation } = LISTS[list];
    return { path: paths[path], options: { operation, purpose: `list ${list}`, query } };
  }

  /** Operation 6 or 7, all pages, to check an absence: a 4xx first page is returned, any other failure thrown. */
  async listWhole(list: ListName): Promise<ListRead> {
    const { path, options } = this.listAt(list);
    const read = await readPages(this.api, path, options);
    const { status, paging } = read;
    if (paging.complete || (paging.pages === 0 && status >= 400 && status < 500)) return read;
    await attachJson(`The ${paging.pages} page(s) of the ${list} read before it failed`, read.body);
    throw incomplete(path, read);
  }

  /** Operation 6: a consumer's record as the list shows it now, or undefined; a refused list fails as that refusal. */
  async lookUpConsumer(consumerId: string): Promise<unknown> {
    const { path, options } = this.listAt('consumers');
    const read = await readPages(this.api, path, options, (bodies) => ownRecord(bodies, consumerId) !== undefined);
    expectAccepted(read, 'the consumer list');
    return ownRecord(read.body, consumerId);
  }

  /** Waits until the consumer list has an item for `consumerId` on which `shows` holds (by default, listed). */
  awaitConsumer(consumerId: string, what: string, shows?: ItemReading, transition?: Transition): Promise<Shown> {
    return this.awaitItem('consumers', `consumer ${consumerId} ${what}`, { consumerId }, shows, transition);
  }

  /** Waits until the subscribed persons include `stored` (by gedi or legal id) and `shows` holds on its entry. */
  awaitSubscription(stored: StoredPerson, what = 'to be subscribed', shows?: ItemReading, transition?: Transition) {
    const { gedi } = stored;
    const { legalId } = stored.person;
    const subject = `person ${gedi} (legal id ${legalId}) ${what}`;
    return this.awaitItem('subscribed persons', subject, { gedi, 'legal id': legalId }, shows, transition);
  }

  /**
   * Re-reads a list as far as a record of its own carrying one of `carrying`'s values, until `shows` holds for it (by
   * default, that it is there). A wait joins a read in flight for other waits: a state only moves on, so an early read
   * can only make it look again.
   */
  private async awaitItem(
    list: ListName,
    what: string,
    carrying: Record<string, string>,
    shows?: ItemReading,
    transition?: Transition,
  ): Promise<Shown> {
    const carried = Object.entries(carrying).map(([key, value]) => `${key} ${value}`);
    const find = (body: unknown) =>
      Object.values(carrying).flatMap((value, index) =>
        recordsOwning(body, value).map((owning) => ({ ...owning, carries: carried[index] })),
      )[0];
    const looked = `every page of the ${list} for a record carrying ${carried.join(' or ')}`;
    const { path, options } = this.listAt(list);
    let last: ListRead | undefined;
    const { value, response } = await eventually<Reading>(
      what,
      async () => (last = await readTogether(this.api, path, options, (bodies) => find(bodies) !== undefined)),
      (response) => {
        const found = response.ok ? find(response.body) : undefined;
        if (found === undefined) return response.ok && reading([], looked, 'no such record');
        const listed = [`${found.path}: a record of its own carrying ${found.carries}`];
        return shows ? shows(found.item) : reading(listed, looked, '');
      },
      { timeoutMs: this.config.availabilityTimeoutMs, transition },
    ).catch((error: unknown) => {
      throw error instanceof NotConsistentError && last && last.paging.pages > 0 && !last.ok
        ? incomplete(path, last)
        : error;
    });
    return { reading: value, record: find(response.body)!.item };
  }

  /** Uploads a consumer for an available person and waits until it is IDENTIFIED (transition.consumer-identified). */
  async identify(consumer: Consumer): Promise<ApiResponse> {
    const response = await this.upload([consumer]);
    try {
      expectAccepted(response, 'the consumer upload');
      await this.awaitConsumer(consumer.consumerId, 'to be IDENTIFIED', identified, 'identification');
    } catch (error) {
      throw new OtherRuleFailure('transition.consumer-identified', error);
    }
    return response;
  }

  /** `identify`, then waits until the person is subscribed (transition.subscription-created). */
  async subscribe(stored: StoredPerson, consumer: Consumer): Promise<ApiResponse> {
    const response = await this.identify(consumer);
    await this.awaitSubscription(stored, 'to be subscribed', undefined, 'subscription').catch((error: unknown) => {
      throw new OtherRuleFailure('transition.subscription-created', error);
    });
    return response;
  }

  /** Reads every page of a list after `windowMs` for a record of its own of a person that must not be there. */
  async watchForPerson(list: ListName, stored: StoredPerson, windowMs: number): Promise<Reading> {
    const what = `person ${stored.gedi} (legal id ${stored.person.legalId}) among the ${list}`;
    let read: ListRead | undefined;
    const seen = await watch<Reading>(
      `${what} (it must not)`,
      async () => (read = await this.listWhole(list)),
      (response) => response.ok && listsPerson(response.body, stored),
      { timeoutMs: windowMs },
    );
    // A refused first page shows nothing about the list.
    if (read) expectAccepted(read, `the ${list}`);
    const looked = `every page of the ${list}, read after ${windowMs} ms, for a record of ${what}`;
    return seen?.value ?? { holds: false, evidence: [], looked, found: 'no record of the person' };
  }
}

type Found = (bodies: unknown[]) => boolean;
/** Per client and list path: the read in flight and what each wait that joined it looks for. */
const inFlight = new WeakMap<ApiClient, Map<string, { read: Promise<ListRead>; found: Found[] }>>();

/** A read of the list until every joined wait's `found` holds, or to its end; joined while in flight. */
function readTogether(api: ApiClient, path: string, options: RequestOptions, found: Found): Promise<ListRead> {
  if (!inFlight.has(api)) inFlight.set(api, new Map());
  const reads = inFlight.get(api)!;
  const current = reads.get(path);
  if (current) {
    current.found.push(found);
    // A read that stopped because the test that began it had ended says nothing of this wait: it reads again.
    return current.read.catch((error: unknown) => {
      if (error instanceof NotSentError) return readTogether(api, path, options, found);
      throw error;
    });
  }
  const joined = [found];
  const read = readPages(api, path, options, (bodies) => joined.every((each) => each(bodies)));
  reads.set(path, { read: read.finally(() => reads.delete(path)), found: joined });
  return reads.get(path)!.read;
}
