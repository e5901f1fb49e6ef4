// Owns the consumer data verbs: operations 5–7 for one client (upload, list consumers, list subscribed persons).
import type { ContractConfig } from '../run/config.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';
import type { Consumer } from '../data/factories.js';
import type { Shown, StoredPerson } from './persons.js';
import { eventually, NotConsistentError, watch, type Transition, type WaitOptions } from '../readings/eventually.js';
import {
  continuationOf,
  ListIncompleteError,
  readCost,
  readPages,
  type Continuation,
  type ListRead,
} from '../readings/list-reader.js';
import type { ListScans, ScanNeed } from '../readings/list-scan.js';
import { listsPerson, personRecords, reading, recordsOwning, type Reading } from '../readings/facts.js';
import { expectSchema } from '../readings/schemas.js';
import type { Identity, IdentityFact, LearnedFacts, RecordReading } from '../layout/learned-readings.js';
import { expectAccepted } from '../evidence/expectations.js';
import { notPermitted, OtherRuleFailure } from '../evidence/failures.js';
import { step } from '../evidence/report.js';

/** Each list's path setting and operation; its reads' purpose is `list <name>`. */
const LISTS = {
  consumers: { path: 'consumers', operation: 'op6', entries: 'consumers.entries' },
  'subscribed persons': { path: 'subscribedPersons', operation: 'op7', entries: 'subscriptions.entries' },
} as const;
type ListName = keyof typeof LISTS;

/** A refused page shows nothing of the list: a 403 is a permission the client lacks, any other a list not read. */
function unread(path: string, what: string, read: ListRead): Error {
  if (read.status === 403) return notPermitted(read, what);
  const { paging, status, exchanges } = read;
  const reason = `page ${paging.pages + 1} answered ${status}`;
  return new ListIncompleteError(path, paging.convention, paging.pages, reason, exchanges);
}

/**
 * A read of a list as a report step titled with what it cost (`Read the consumers: 31 pages, 33 requests`), so a list
 * that has grown shows in the report where its pages were read. `unlearned`: the layout file names no continuation
 * for its lists, so a read that ended on its first page says that it read one page.
 */
function reportedRead(
  list: ListName,
  read: () => Promise<ListRead>,
  unlearned: boolean,
  scanned = false,
): Promise<ListRead> {
  const title = `Read the ${list}${scanned ? " from the run's scan, pages asked since this look began" : ''}`;
  return step(title, async ({ rename }) => {
    const done = await read();
    const { complete, pages } = done.paging;
    const end = complete
      ? unlearned && pages === 1
        ? 'to its end, one page: the layout file names no continuation, as learning saw no second page'
        : 'to its end'
      : done.ok
        ? 'up to what it looked for'
        : `page ${pages + 1} answered ${done.status}`;
    await rename(`${title}: ${readCost(done.paging)}, ${end}`);
    return done;
  });
}

/** How a wait knows the entry it waits for, what the timeout says it looked for, and whose identity it carries. */
interface Entry {
  find: (entries: unknown) => unknown;
  looked: string;
  identity: { fact: IdentityFact; of: Identity };
}

/** What a wait reads on a list's record of its own: a fact of its (IDENTIFIED, a family name). */
type ItemReading = RecordReading;

/** By the reader's words: the record of a list that carries `value` as a field of its own. */
const recordOwning = (body: unknown, value: string): unknown => recordsOwning(body, value)[0]?.item;

/** By the reader's words: the person's own record in a list (`listsPerson`), so that found and not found are one. */
const recordOfPerson = (body: unknown, stored: StoredPerson): unknown =>
  personRecords(body).find(({ item }) => listsPerson(item, stored).holds)?.item;

/**
 * Operations 5–7 for one client. The order and parameters of the lists are not documented, so a record can be on any
 * page: a look for it reads until it is found; a check that it is absent reads every page, or fails as incomplete.
 */
export class ConsumerData {
  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
    /** Where the target shows a consumer's state (support/layout/learned-readings.ts). */
    private readonly facts: LearnedFacts,
    /** The run's scans of this client's lists, which every wait reads (none: each wait reads alone). */
    private readonly scans?: ListScans,
  ) {}

  /** What a learning run's one ask for a second page of each list showed (`askSecondPage`). */
  private readonly secondPages = new Map<ListName, Promise<Continuation | string>>();

  /** A wait for an effect of this test's: the availability deadline, the test named for the bench's wait log. */
  private waiting(transition?: Transition): WaitOptions {
    return {
      timeoutMs: this.config.availabilityTimeoutMs,
      transition,
      test: this.api.work?.name,
      clock: this.api.clock,
    };
  }

  /** The same operations acting as another client (isolation checks), each of its reads alone. */
  as(api: ApiClient): ConsumerData {
    return new ConsumerData(api, this.config, this.facts);
  }

  /**
   * Operation 5, `POST /consumer-intelligence/v3/consumers` (`CONTRACT_CONSUMERS_PATH`), the consumers as the body:
   * `[{ consumerId, market, data: { legalId } }]` (support/data/factories.ts `consumer`).
   */
  upload(consumers: Consumer[]): Promise<ApiResponse> {
    expectSchema('consumer-upload', consumers);
    const options = { json: consumers, operation: 'op5', purpose: 'upload consumers' };
    return this.api.request('POST', this.config.paths.consumers, options);
  }

  /**
   * One read of a list, reported, its pages followed by the continuation the layout file names (a page without it
   * ends the list); a learning run journals where its pages named their next one.
   */
  private async read(list: ListName, path: string, options: RequestOptions, until?: (entries: unknown) => boolean) {
    const continuation = this.facts.continuation();
    const unlearned = this.facts.layout !== undefined && continuation === undefined;
    const enough = until && ((pages: unknown[]) => until(this.facts.entriesOf(LISTS[list].entries, pages)));
    const done = await reportedRead(
      list,
      () => readPages(this.api, path, options, enough, { continuation }),
      unlearned,
    );
    this.facts.observeEntries(LISTS[list].entries, LISTS[list].operation, done.pages);
    this.facts.observeContinuation(LISTS[list].operation, await this.continuationSeen(list, path, options, done));
    return done;
  }

  /**
   * A wait's read of a list: from the run's scan (support/readings/list-scan.ts), reported as `read` is, the time it
   * waits for pages the run's and not the test's; a learning run reads alone, as it journals every read.
   */
  private async scanned(
    list: ListName,
    path: string,
    options: RequestOptions,
    kind: ScanNeed['kind'],
    found?: (entries: unknown) => boolean,
  ): Promise<ListRead> {
    if (!this.scans || this.config.layout.kind === 'learn') return this.read(list, path, options, found);
    const continuation = this.facts.continuation();
    const scan = this.scans.of(path, options, continuation);
    const onPage = found && ((page: unknown) => found(this.facts.entriesOf(LISTS[list].entries, [page])));
    const unlearned = this.facts.layout !== undefined && continuation === undefined;
    const stop = this.api.work?.laterPages();
    try {
      const read = () => scan.read({ kind, found: onPage, work: this.api.work });
      return await reportedRead(list, read, unlearned, true);
    } finally {
      stop?.();
    }
  }

  /**
   * Learning only: where a read's pages named their next one, or why none showed; a list that ended on its first page
   * is asked for a small page first (`askSecondPage`).
   */
  private async continuationSeen(list: ListName, path: string, options: RequestOptions, done: ListRead) {
    const { layout } = this.config;
    if (layout.kind !== 'learn' || !done.ok) return undefined;
    if (done.continuedBy) return done.continuedBy;
    const { pages, complete, convention } = done.paging;
    // Page numbers and offsets are computed: a list read past its first page by them names no continuation.
    if (pages > 1) return `the ${list} were read past their first page by ${convention}: no page names its next one`;
    if (!complete) return `every read of the ${list} stopped on its first page, which names no next one`;
    if (!layout.smallPage) return `every read of the ${list} ended on its first page, at the page size set`;
    return this.askSecondPage(list, path, options, layout.smallPage);
  }

  /**
   * Learning only: a list that ended on its first page is asked once for pages of `size`, so that its continuation is
   * seen; the reason a second page stayed out of sight, where it did.
   */
  private askSecondPage(
    list: ListName,
    path: string,
    options: RequestOptions,
    { size, parameter }: { size: number; parameter: string },
  ): Promise<Continuation | string> {
    const asked = this.secondPages.get(list);
    if (asked) return asked;
    const ask = `${parameter}=${size}`;
    const answer = step(`Ask the ${list} for ${ask}, to learn how a page names its next one`, async () => {
      const query = { ...options.query, [parameter]: String(size) };
      const page = await this.api.request('GET', path, { ...options, query, purpose: `learn how the ${list} page` });
      const onePage = `every read of the ${list} ended on its first page, and asked for ${ask}`;
      const fix = 'set CONTRACT_PAGE_SIZE_PARAMETER to its page size parameter and learn again';
      if (!page.ok) return `${onePage}, the target answered ${page.status}: ${fix}`;
      this.facts.observeEntries(LISTS[list].entries, LISTS[list].operation, [page.body]);
      return continuationOf(page) ?? `${onePage}, it still showed no next page: ${fix}`;
    });
    this.secondPages.set(list, answer);
    return answer;
  }

  /** Where a list is served and how its reads are published, with the page size when one is set. */
  private listAt(list: ListName): { path: string; options: RequestOptions } {
    const { pageSize, paths } = this.config;
    const query = pageSize ? { [pageSize.parameter]: String(pageSize.size) } : undefined;
    const { path, operation } = LISTS[list];
    return { path: paths[path], options: { operation, purpose: `list ${list}`, query } };
  }

  /**
   * Operation 6 or 7, `GET /consumer-intelligence/v3/consumers` or `GET …/v3/subscriptions/persons`
   * (`CONTRACT_CONSUMERS_PATH`, `CONTRACT_SUBSCRIBED_PERSONS_PATH`, with `CONTRACT_PAGE_SIZE` in its parameter when
   * set), then each next page the answers name: a GET of the next page's address on the list's own host, or of the
   * list's path with the cursor, offset or page number they give (support/readings/list-reader.ts reads every common
   * convention). Every page, accepted, to check an absence; else it fails as not permitted (403) or as a list not read
   * completely, never with an answer that could read as "not listed".
   */
  async listWhole(list: ListName): Promise<ListRead> {
    const { path, options } = this.listAt(list);
    const read = await this.read(list, path, options);
    if (!read.ok) throw unread(path, `the ${list}`, read);
    return read;
  }

  /**
   * The records a read of a list showed: where the layout file says its pages hold them, and nowhere else (a page
   * that moved them, or a read ended on pages with a key nobody learned, is a changed layout); without a layout file,
   * every page's body whole.
   */
  entriesOf(list: ListName, read: ApiResponse | ListRead): unknown {
    if (!('pages' in read)) return this.facts.entriesOf(LISTS[list].entries, [read.body]);
    return this.facts.entriesOf(LISTS[list].entries, read.pages, read.paging.complete);
  }

  /** The consumer's own entry among a read's entries: where the layout file says an entry carries its id. */
  private consumerEntry(entries: unknown, consumerId: string): unknown {
    return this.facts.entryNaming('consumer.id', entries, { consumerId }, (all) => recordOwning(all, consumerId));
  }

  /** The person's own entry among the subscribed persons: where the layout file says an entry names its person. */
  private personEntry(entries: unknown, stored: StoredPerson): unknown {
    const person = { gedi: stored.gedi, legalId: stored.person.legalId };
    return this.facts.entryNaming('subscription.person', entries, { person }, (all) => recordOfPerson(all, stored));
  }

  /** Operation 6: a consumer's record as the list shows it now, or undefined after every page was read. */
  async lookUpConsumer(consumerId: string): Promise<unknown> {
    const { path, options } = this.listAt('consumers');
    const found = (entries: unknown) => this.consumerEntry(entries, consumerId) !== undefined;
    const read = await this.read('consumers', path, options, found);
    if (!read.ok) throw unread(path, 'the consumers', read);
    return this.consumerEntry(this.entriesOf('consumers', read), consumerId);
  }

  /**
   * Reads operation 6's pages (as `listWhole` does) until the consumer list has a record of its own carrying
   * `consumerId` on which `shows(record).holds` (by default, that it is listed), and returns that reading; at the
   * availability deadline it fails with what the last read showed (`NotConsistentError`), or as a list not read
   * completely when its last read was refused past its first page.
   */
  awaitConsumer(consumerId: string, what: string, shows?: ItemReading, transition?: Transition): Promise<Shown> {
    const entry = {
      find: (entries: unknown) => this.consumerEntry(entries, consumerId),
      looked: `every page of the consumers for a record carrying consumerId ${consumerId}`,
      identity: { fact: 'consumer.id' as const, of: { consumerId } },
    };
    return this.awaitItem('consumers', `consumer ${consumerId} ${what}`, entry, shows, transition);
  }

  /**
   * Reads operation 7's pages until the subscribed persons include a record of `stored`'s own and `shows` holds on it,
   * as `awaitConsumer` reads the consumers.
   */
  awaitSubscription(stored: StoredPerson, what = 'to be subscribed', shows?: ItemReading, transition?: Transition) {
    const subject = `person ${stored.gedi} (legal id ${stored.person.legalId})`;
    const entry = {
      find: (entries: unknown) => this.personEntry(entries, stored),
      looked: `every page of the subscribed persons for a record of ${subject} as its own (not a relative's)`,
      identity: {
        fact: 'subscription.person' as const,
        of: { person: { gedi: stored.gedi, legalId: stored.person.legalId } },
      },
    };
    return this.awaitItem('subscribed persons', `${subject} ${what}`, entry, shows, transition);
  }

  /** Re-reads a list as far as the entry `entry` finds, until `shows` holds for it (by default, that it is there). */
  private async awaitItem(
    list: ListName,
    what: string,
    { find, looked, identity }: Entry,
    shows?: ItemReading,
    transition?: Transition,
  ): Promise<Shown> {
    const { path, options } = this.listAt(list);
    let last: ListRead | undefined;
    const { value, response } = await eventually<Reading>(
      what,
      async () => {
        const found = (entries: unknown) => find(entries) !== undefined;
        return (last = await this.scanned(list, path, options, 'look', found));
      },
      (response) => {
        const found = response.ok ? find(this.entriesOf(list, response)) : undefined;
        if (found === undefined) return response.ok && reading([], looked, 'no such record');
        if (shows) return shows(found);
        const where = this.facts.whereNamed(identity.fact);
        const own = `a record of its own${where ? ` (${where})` : ''}`;
        return reading([`${own}: ${JSON.stringify(found).slice(0, 300)}`], looked, '');
      },
      this.waiting(transition),
    ).catch(async (error: unknown) => {
      if (error instanceof NotConsistentError && last && last.paging.pages > 0 && !last.ok)
        throw unread(path, `the ${list}`, last);
      // An entry that never satisfied a learned location may hold the fact elsewhere: the layout moved.
      const entry =
        error instanceof NotConsistentError && error.lastResponse.ok
          ? find(this.entriesOf(list, error.lastResponse))
          : undefined;
      throw (entry !== undefined && (await shows?.settle?.(entry, false))) || error;
    });
    const record = find(this.entriesOf(list, response));
    this.facts.observeIdentity(identity.fact, LISTS[list].operation, record, identity.of);
    await shows?.settle?.(record, true);
    return { reading: value, record };
  }

  /**
   * The documented state IDENTIFIED, where the target's layout file says a consumer's entry shows it; `control`, a
   * consumer uploaded with a legal id of no person, is what learning compares the entry with.
   */
  identifiedBeside(consumer: Consumer, control: Consumer): RecordReading {
    return this.facts.reading('consumer.identified', {
      own: { given: consumer, identity: [consumer.consumerId] },
      control: async () => {
        const { record } = await this.awaitConsumer(control.consumerId, 'to be listed, as the control');
        return { record, bindings: {}, given: control, identity: [control.consumerId] };
      },
    });
  }

  /** The documented state IDENTIFIED, where the target's layout file says a consumer's entry shows it. */
  identified(): RecordReading {
    return this.facts.reading('consumer.identified');
  }

  /** Uploads a consumer for an available person and waits until it is IDENTIFIED (transition.consumer-identified). */
  async identify(consumer: Consumer): Promise<ApiResponse> {
    const response = await this.upload([consumer]);
    try {
      expectAccepted(response, 'the consumer upload');
      await this.awaitConsumer(consumer.consumerId, 'to be IDENTIFIED', this.identified(), 'identification');
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
    const seen = await watch<Reading>(
      `${what} (it must not)`,
      async () => {
        const { path, options } = this.listAt(list);
        const read = await this.scanned(list, path, options, 'whole');
        if (!read.ok) throw unread(path, `the ${list}`, read);
        return read;
      },
      (response) => {
        const entries = this.entriesOf(list, response);
        if (list === 'consumers') return listsPerson(entries, stored);
        const entry = this.personEntry(entries, stored);
        const shown = `an entry of the person: ${JSON.stringify(entry)?.slice(0, 300)}`;
        return entry === undefined ? reading([], what, 'no entry of the person') : reading([shown], what, '');
      },
      { ...this.waiting(), timeoutMs: windowMs },
    );
    const looked = `every page of the ${list}, read after ${windowMs} ms, for a record of ${what}`;
    return seen?.value ?? { holds: false, evidence: [], looked, found: 'no record of the person' };
  }
}
