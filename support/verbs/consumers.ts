// Owns the consumer data verbs: operations 5–7 for one client (upload, list consumers, list subscribed persons).
import type { ContractConfig } from '../run/config.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';
import { SharedWork } from '../transport/work.js';
import type { Consumer } from '../data/factories.js';
import type { StoredPerson } from './persons.js';
import { eventually, watch, type AwaitedTransition, type ReadAttempt } from '../readings/eventually.js';
import { readPage, readPages, type ListRead, type NextPage, type PagePlace } from '../readings/list-reader.js';
import { identified, listsPerson, recordsOwning, type Reading } from '../readings/facts.js';
import { expectSchema } from '../readings/schemas.js';
import { expectAccepted } from '../evidence/expectations.js';
import { attachJson, step } from '../evidence/report.js';
import { coveredBy } from '../evidence/refusals.js';

type ListName = 'consumers' | 'subscribed persons';

/**
 * Operations 5–7 for one client. Neither the order nor the parameters of the lists are documented,
 * so a record can be on any page: a look for a record reads pages until it is found (or glances at
 * the page where the run's new records appear, SharedListReads), and a check that a record is
 * absent reads them all.
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
    return this.api.request('POST', this.config.paths.consumers, { json: consumers, operation: 'op5', purpose: 'upload consumers' });
  }

  /** Where a list is served, and how its reads are published: operation 6 or 7. */
  private listAt(list: ListName): { path: string; options: RequestOptions } {
    return list === 'consumers'
      ? { path: this.config.paths.consumers, options: { operation: 'op6', purpose: 'list consumers' } }
      : { path: this.config.paths.subscribedPersons, options: { operation: 'op7', purpose: 'list subscribed persons' } };
  }

  /**
   * The reads of one wait on the list, shared with the other waits on it (SharedListReads): none
   * older than the wait itself (it began after its write was answered), each newer than the last;
   * but a wait for what only the run's own write can show (`glancing.awaited`) takes it from any
   * read in flight, whenever it began. A wait for a record may glance (`glancing`): read only the
   * page where the run's new records appear, and the whole list when `wholeListDue` says, so a
   * record that appears elsewhere is still seen. A wait for a record new to the list (not a new
   * version of one listed before) that finds it on the last page a read asked for, and on no page
   * before, shows where new records appear.
   */
  private readsTogether(list: ListName, glancing?: { newRecord: boolean; awaited?: boolean }): TogetherReads {
    const { path, options } = this.listAt(list);
    const reads = listReadsOf(this.api);
    let lookedAt = Date.now();
    let missedGlances = 0;
    let wholePastHalfway = false;
    const othersReads = (heard: (answer: ApiResponse) => void) => reads.onRead(path, heard);
    const read = async (found: (bodies: unknown[]) => boolean, attempt?: ReadAttempt): Promise<ApiResponse> => {
      const begun = Date.now();
      const glance = glancing !== undefined && !wholeListDue({ missedGlances, placeKnown: reads.knowsWhereNewRecordsAppear(path), wholePastHalfway }, attempt);
      if (!glance && attempt?.pastHalfway) wholePastHalfway = true;
      const read = await reads.read(path, options, found, lookedAt, { glance, anyRead: glancing?.awaited });
      lookedAt = begun;
      const pages = pagesOf(read);
      const shows = read.ok && found(pages);
      missedGlances = read.ok && !read.paging.complete && !shows ? missedGlances + 1 : 0;
      if (glancing?.newRecord && shows && !found(pages.slice(0, -1))) reads.newRecordsAppearAt(path, read.paging.lastPage, read.paging.end);
      return read;
    };
    return { read, othersReads };
  }

  /** Operation 6, every page, read no earlier than the call: for a check that a record is absent (`readWhole`). */
  listConsumers(): Promise<ListRead> {
    return this.readWhole('consumers');
  }

  /** Operation 7, every page, read no earlier than the call: for a check that a record is absent (`readWhole`). */
  listSubscribedPersons(): Promise<ListRead> {
    return this.readWhole('subscribed persons');
  }

  /**
   * Every page of a list, read no earlier than the call: what a check that a record is absent needs.
   * When a watch on the list has scheduled a whole read for later (`watchForPerson`), the check waits
   * for it and takes it: a later read is as good evidence of an absence (the record had longer to
   * appear), and one read of every page serves both.
   */
  private async readWhole(list: ListName): Promise<ListRead> {
    const { path, options } = this.listAt(list);
    const reads = listReadsOf(this.api);
    const askedAt = Date.now();
    const scheduled = reads.scheduledRead(path);
    if (scheduled === undefined) return reads.read(path, options, () => false, askedAt);
    return step(`Take the whole read of the ${list} due in ${Math.max(0, scheduled.at - askedAt)} ms for the watch of ${scheduled.what}: one read serves both`, async () => {
      await reads.untilScheduledReadBegins(path, scheduled);
      const read = await reads.read(path, options, () => false, askedAt);
      await attachJson('the read taken (its pages are attached to the watch\'s test)', { answeredAfterMs: read.receivedAt - askedAt, status: read.status, pages: read.paging.pages, complete: read.paging.complete });
      return read;
    });
  }

  /**
   * Operation 6, for one consumer listed before: its record as the list shows it now. A glance at
   * the page where the run's new records appear, and the pages up to its record when it is not
   * there; undefined when the list, read to its end, has no record of it. A list the target refuses
   * fails as that refusal (a 403 as not permitted), never as a consumer missing from it.
   */
  async lookUpConsumer(consumerId: string): Promise<unknown> {
    // Not `awaited`: the state it reads (NOT IDENTIFIED, say) must be no older than the call.
    const shows = (bodies: unknown[]) => consumerRecord(bodies, consumerId) !== undefined;
    const { read } = this.readsTogether('consumers', { newRecord: false });
    const glanced = await read(shows);
    const answer = glanced.ok && consumerRecord(glanced.body, consumerId) !== undefined ? glanced : await read(shows, { final: true, pastHalfway: true });
    expectAccepted(answer, 'the consumer list');
    return consumerRecord(answer.body, consumerId);
  }

  /** Waits until the consumer list has an item for `consumerId` for which `until` holds. */
  awaitConsumer(consumerId: string, what: string, until: (item: unknown) => boolean = () => true, transition?: AwaitedTransition): Promise<unknown> {
    return this.awaitItem(
      `consumer ${consumerId} ${what}`,
      // Consumers are awaited after their upload: new to the list.
      this.readsTogether('consumers', { newRecord: true, awaited: true }),
      (body) => consumerRecord(body, consumerId),
      until,
      transition,
    );
  }

  /**
   * Waits until the subscribed persons include `stored` (by gedi or legal id) and `until` holds for
   * it: without `until`, a subscription new to the list; with it, a new version of one listed before.
   */
  awaitSubscription(stored: StoredPerson, what = 'to be subscribed', until?: (item: unknown) => boolean, transition?: AwaitedTransition): Promise<unknown> {
    return this.awaitItem(
      `person ${stored.gedi} (legal id ${stored.person.legalId}) ${what}`,
      this.readsTogether('subscribed persons', { newRecord: until === undefined, awaited: true }),
      (body) => recordsOwning(body, stored.gedi)[0]?.item ?? recordsOwning(body, stored.person.legalId)[0]?.item,
      until ?? (() => true),
      transition,
    );
  }

  /** Re-reads a list (only as far as the item) until `find` locates the item and `until` holds for it. */
  private async awaitItem(
    what: string,
    list: TogetherReads,
    find: (body: unknown) => unknown,
    until: (item: unknown) => boolean,
    transition?: AwaitedTransition,
  ): Promise<unknown> {
    const { value } = await eventually(
      what,
      (attempt) => list.read((bodies) => find(bodies) !== undefined, attempt),
      (response) => {
        const item = response.ok ? find(response.body) : undefined;
        return item !== undefined && until(item) ? { item } : undefined;
      },
      { timeoutMs: this.config.availabilityTimeoutMs, transition, othersReads: list.othersReads },
    );
    return value.item;
  }

  /**
   * Uploads a consumer for an available person and waits until it is IDENTIFIED: the promise of
   * transition.consumer-identified, whose own spec reports it when a test that depends on it fails
   * here. Returns the upload's answer.
   */
  async identify(consumer: Consumer): Promise<ApiResponse> {
    return (await this.uploadIdentified(consumer)).response;
  }

  /** `identify`, and when the consumer was seen IDENTIFIED (epoch ms). */
  private async uploadIdentified(consumer: Consumer): Promise<{ response: ApiResponse; identifiedAt: number }> {
    const response = await this.upload([consumer]);
    try {
      expectAccepted(response, 'the consumer upload');
      await this.awaitConsumer(consumer.consumerId, 'to be IDENTIFIED', (item) => identified(item).holds, { name: 'identification', since: response.receivedAt });
    } catch (error) {
      throw coveredBy(error, 'transition.consumer-identified');
    }
    return { response, identifiedAt: Date.now() };
  }

  /**
   * `identify`, then waits until the person is subscribed: the promise of
   * transition.subscription-created, reported by its own spec likewise. Returns the upload's answer.
   */
  async subscribe(stored: StoredPerson, consumer: Consumer): Promise<ApiResponse> {
    const { response, identifiedAt } = await this.uploadIdentified(consumer);
    await this.awaitSubscription(stored, 'to be subscribed', undefined, { name: 'subscription', since: response.receivedAt, after: identifiedAt }).catch((error: unknown) => {
      throw coveredBy(error, 'transition.subscription-created');
    });
    return response;
  }

  /**
   * Reads a list, every page, for `windowMs`, watching for a record of its own for a person that
   * must not be there (by its gedi or legal id, not as another record's relative): the reading of
   * the first read that shows one, or a reading that holds for none when the window stayed quiet.
   */
  async watchForPerson(list: ListName, stored: StoredPerson, windowMs: number): Promise<Reading> {
    const person = { gedi: stored.gedi, legalId: stored.person.legalId };
    const what = `person ${stored.gedi} (legal id ${stored.person.legalId}) among the ${list}`;
    const { path, options } = this.listAt(list);
    const reads = listReadsOf(this.api);
    // The watch reads once, at its window's end (POLLING.watchShare): a check that a record is absent
    // from the list meanwhile waits for that read (`readWhole`).
    const withdraw = reads.schedule(path, Date.now() + windowMs, what);
    try {
      const seen = await watch(
        `${what} (it must not)`,
        // Only a read begun after the window's end counts. Each page is read once for the stop: the pages before it were read when they came.
        () => {
          const read = reads.read(path, options, (bodies) => listsPerson(bodies.at(-1), person).holds, Date.now());
          // Begun: the checks waiting for it have joined it; a check from now on reads a whole list of its own.
          withdraw();
          return read;
        },
        (response) => {
          const reading = response.ok ? listsPerson(response.body, person) : undefined;
          return reading?.holds ? reading : undefined;
        },
        { timeoutMs: windowMs },
      );
      return seen?.value ?? { holds: false, evidence: [], looked: `every page of the ${list}, read for ${windowMs} ms, for a record of ${what}` };
    } finally {
      withdraw();
    }
  }
}

/** A wait's reads of a list shared with every other wait on it, and the answers their reads bring. */
interface TogetherReads {
  read(found: (bodies: unknown[]) => boolean, attempt?: ReadAttempt): Promise<ApiResponse>;
  othersReads(heard: (answer: ApiResponse) => void): () => void;
}

/** A whole read of a list a watch will make at `at`, watching for `what`. */
interface ScheduledRead {
  at: number;
  what: string;
}

/** The waits that joined one read of a list, each by what it looks for. */
type JoinedWaits = SharedWork<(bodies: unknown[]) => boolean>;

/**
 * Whether a glancing wait's next read is of the whole list rather than a glance: a glance that
 * misses says its record is not there yet, or not there.
 * - At its deadline: no read follows, and the record may be anywhere.
 * - After glances in a row that missed: two at the first page, where every read begins until a wait
 *   has found a record new to the list (the list may show new records elsewhere, at its end when
 *   shown oldest first, and the run learns where only from a read that finds one); four at a page
 *   where a wait found one (`placeKnown`). A wait's reads come from its first look on (the median of
 *   the run's times) 20 % of the time waited apart, so the fourth comes at 1.7 times the first look,
 *   past nearly every effect of a transition, and a miss then says "elsewhere". After two there, one
 *   wait in three or so read every page while its record was still on its way to the glanced page
 *   (on the vendor's layout, 35 pages for one that showed up there a second later:
 *   docs/MEASUREMENTS.md, 26 Nov, fifth session).
 * - Once past half its time (`pastHalfway`), when its last glance missed and it has not read the
 *   whole list since: a wait whose reads the pace holds may make no other read before its deadline.
 */
export function wholeListDue(wait: { missedGlances: number; placeKnown: boolean; wholePastHalfway: boolean }, attempt?: ReadAttempt): boolean {
  if (attempt?.final) return true;
  if (attempt?.pastHalfway && !wait.wholePastHalfway && wait.missedGlances > 0) return true;
  return wait.missedGlances >= (wait.placeKnown ? 4 : 2);
}

/**
 * The waits of every test on one list of one client read it together: a wait that wants to look
 * while another's read of that list is in flight joins it, and the read goes on until every joined
 * wait's record is found (or the list ends); a wait whose test has ended no longer counts, and the
 * read ends with the last of them (support/transport/work.ts). A wait that wants to look just after
 * another's read (begun at most `FRESH_MS` before, and after the wait's own last look) takes that
 * answer instead, if it shows the wait's record or was read to its last page: it is the look the
 * wait would have had a moment earlier. And every wait on the list hears every answer read from it
 * (`onRead`): an answer that shows a wait's state is that wait's next attempt, at once, instead of a
 * read of its own after sleeping on (`eventually`'s othersReads), so an effect is noticed by
 * whichever wait on the list reads first. A list not yet showing a record costs a read of every
 * page, so one answer for all of them saves the most where waits are most frequent.
 *
 * Neither the order of a list nor what its pages hold is documented, but a wait that finds a record
 * new to the list shows where the run's new records appear (ConsumerData): the first page of a list
 * shown newest first, the last of one shown oldest first. A glance reads that page, on to the
 * list's end when it was the list's last (records that filled it went onto the pages after it), or
 * the first page until such a record was found; a run starts from the pages the run before kept
 * (`startFrom`), so a list that grows every night is not read whole to find them again. What a
 * glance shows is shown, affirmative evidence like any page's; what it does not show may be on
 * another page, so the wait's next reads include whole ones (ConsumerData). A glance the target
 * refuses (a page token that expired) forgets the page and reads the whole list instead.
 */
export class SharedListReads {
  /**
   * At most this old, and always newer than the wait's own last look, so it never looks less often
   * than its schedule: less than a step of its reads at the delays seen (20 % of the time waited).
   */
  static readonly FRESH_MS = 300;
  /** How late a scheduled read may begin before the checks waiting for it read alone (a watch's read is due when its timer fires). */
  static readonly SCHEDULE_GRACE_MS = 1_000;
  private readonly inFlight = new Map<string, { joined: JoinedWaits; read: Promise<ListRead>; begunAt: number }>();
  private readonly latest = new Map<string, { read: ListRead; begunAt: number }>();
  /** Per list, the page where a wait last found a record new to it; absent: the first page. */
  private readonly newRecordsAt = new Map<string, PagePlace>();
  /** The lists where a wait found a record new to it (on any page, the first included), or whose place an earlier run kept. */
  private readonly placeFound = new Set<string>();
  /** Per list, the waits told of every answer read from it (`onRead`). */
  private readonly hearing = new Map<string, Set<(answer: ListRead) => void>>();
  /** Per list, the whole reads watches have scheduled (`schedule`). */
  private readonly scheduled = new Map<string, Set<ScheduledRead>>();
  /** Per list, the checks waiting for a scheduled read (`untilScheduledReadBegins`), woken when a whole read begins or a schedule is withdrawn. */
  private readonly waitingForWhole = new Map<string, Set<() => void>>();

  constructor(
    private readonly api: ApiClient,
    private readonly freshMs = SharedListReads.FRESH_MS,
    private readonly scheduleGraceMs = SharedListReads.SCHEDULE_GRACE_MS,
  ) {}

  /**
   * A read for a wait whose last look began at `lookedAt` (or whose write was answered then): a
   * glance at the page where new records appear when `glance`, else every page until `found` holds.
   * With `anyRead`, what the wait looks for is shown only by the run's own write (a run-unique
   * record, or its state after that write), so whichever page shows it is evidence, however early
   * the read it came in began: the wait joins a read in flight that began before its last look too.
   */
  read(path: string, options: RequestOptions, found: (bodies: unknown[]) => boolean, lookedAt: number, { glance = false, anyRead = false } = {}): Promise<ListRead> {
    // A glance is served by a whole read in flight too; a whole read only by another whole one.
    // Neither when it began before the wait's last look (unless `anyRead`): what it shows may be
    // older than that. Nor when every wait that joined it has ended: it sends no more pages.
    const current = [this.inFlight.get(`${path} whole`), glance ? this.inFlight.get(`${path} glance`) : undefined].find(
      (read) => read !== undefined && (anyRead || read.begunAt > lookedAt) && read.joined.goesOn(),
    );
    if (current) {
      current.joined.join(found);
      return current.read;
    }
    const now = Date.now();
    const latest = this.latest.get(path);
    if (latest && latest.begunAt > lookedAt && now - latest.begunAt <= this.freshMs && (latest.read.paging.complete || found(pagesOf(latest.read)))) return Promise.resolve(latest.read);
    const joined: JoinedWaits = new SharedWork();
    joined.join(found);
    const kind = glance ? 'glance' : 'whole';
    const read: Promise<ListRead> = joined.run(() => (glance ? this.glance(path, options, joined) : this.readOn(path, options, joined))).finally(() => {
      if (this.inFlight.get(`${path} ${kind}`)?.read === read) this.inFlight.delete(`${path} ${kind}`);
    });
    this.inFlight.set(`${path} ${kind}`, { joined, read, begunAt: now });
    if (!glance) this.wake(path);
    void read.then(
      (answer) => {
        this.latest.set(path, { read: answer, begunAt: now });
        for (const heard of [...(this.hearing.get(path) ?? [])]) heard(answer);
      },
      () => undefined,
    );
    return read;
  }

  /**
   * A watch will read the whole list at `at` (watching for `what`); returns how to withdraw it, once
   * the watch has read or ended. Until then, a check that a record is absent waits for that read.
   */
  schedule(path: string, at: number, what: string): () => void {
    const scheduled = this.scheduled.get(path) ?? new Set();
    const read = { at, what };
    this.scheduled.set(path, scheduled.add(read));
    return () => {
      scheduled.delete(read);
      this.wake(path);
    };
  }

  /** The earliest whole read of the list a watch has scheduled and not withdrawn; undefined when none has. */
  scheduledRead(path: string): ScheduledRead | undefined {
    return [...(this.scheduled.get(path) ?? [])].reduce<ScheduledRead | undefined>((earliest, read) => (earliest === undefined || read.at < earliest.at ? read : earliest), undefined);
  }

  /**
   * Resolves when a whole read of the list begins (the one scheduled, or any other after the call),
   * when a schedule is withdrawn (its watch ended without it), or `SCHEDULE_GRACE_MS` after the
   * read was due: then the caller reads alone.
   */
  untilScheduledReadBegins(path: string, scheduled: ScheduledRead): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waitingForWhole.get(path) ?? new Set();
      this.waitingForWhole.set(path, waiting);
      const done = () => {
        clearTimeout(late);
        waiting.delete(done);
        resolve();
      };
      const late = setTimeout(done, Math.max(0, scheduled.at - Date.now()) + this.scheduleGraceMs);
      waiting.add(done);
    });
  }

  private wake(path: string): void {
    for (const done of [...(this.waitingForWhole.get(path) ?? [])]) done();
  }

  /** Tells `heard` of every answer read from the list at `path` from now on; returns how to stop. */
  onRead(path: string, heard: (answer: ListRead) => void): () => void {
    const hearing = this.hearing.get(path) ?? new Set();
    this.hearing.set(path, hearing.add(heard));
    return () => hearing.delete(heard);
  }

  /** A wait found a record new to the list on the page `at` asks for (undefined: the first), the list's last page then if `end`. */
  newRecordsAppearAt(path: string, at: NextPage | undefined, end: boolean): void {
    this.placeFound.add(path);
    if (at === undefined) this.newRecordsAt.delete(path);
    else this.newRecordsAt.set(path, { at, end });
  }

  /** Whether a wait of this run found a record new to the list, or the run started from a page where an earlier run's did, still served. */
  knowsWhereNewRecordsAppear(path: string): boolean {
    return this.placeFound.has(path);
  }

  /** Per list, the page where this run's waits last found a record new to it: for the next run (`startFrom`). */
  newRecordsPlaces(): Record<string, PagePlace> {
    return Object.fromEntries(this.newRecordsAt);
  }

  /** Glances start where an earlier run's waits last found records new to each list; this run's own finds replace them. */
  startFrom(places: Readonly<Record<string, PagePlace>>): void {
    for (const [path, place] of Object.entries(places)) {
      if (this.placeFound.has(path)) continue;
      this.newRecordsAt.set(path, place);
      this.placeFound.add(path);
    }
  }

  private readOn(path: string, options: RequestOptions, joined: JoinedWaits, from?: NextPage): Promise<ListRead> {
    return readPages(this.api, path, options, (bodies) => joined.live().every((each) => each(bodies)), { from });
  }

  private async glance(path: string, options: RequestOptions, joined: JoinedWaits): Promise<ListRead> {
    const place = this.newRecordsAt.get(path);
    const purpose = `${options.purpose ?? 'list'}: the page where the run's new records appear`;
    // New records that came on the list's last page come there or on pages added after it: the
    // glance reads on to the list's end (a page more when they filled it, the pages added since
    // when an earlier run found the place).
    const read = place?.end ? await this.readOn(path, { ...options, purpose: `${purpose}, and on to the end` }, joined, place.at) : await readPage(this.api, path, { ...options, purpose }, place?.at);
    if (read.ok) return read;
    this.newRecordsAt.delete(path);
    this.placeFound.delete(path);
    return this.readOn(path, options, joined);
  }
}

/** The bodies of the pages a list read holds. */
function pagesOf(read: ListRead): unknown[] {
  return read.paging.pages > 1 ? (read.body as unknown[]) : [read.body];
}

const listReads = new WeakMap<ApiClient, SharedListReads>();

/** The reads of every list of the client `api` calls as, shared by all its waits for the whole run. */
export function listReadsOf(api: ApiClient): SharedListReads {
  let reads = listReads.get(api);
  if (!reads) listReads.set(api, (reads = new SharedListReads(api)));
  return reads;
}

/** The consumer's own record in a consumer list (an entry that carries its consumerId as a field of its own). */
export function consumerRecord(body: unknown, consumerId: string): unknown {
  return recordsOwning(body, consumerId)[0]?.item;
}
