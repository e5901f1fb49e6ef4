// Owns a run's scan of one list for one client: one read in flight, serving every wait on that list, each judged
// only by pages asked after it began to wait (docs/DESIGN.md "The pace and the list scan").
import type { ApiClient, ApiResponse, RequestOptions, Work } from '../transport/http.js';
import { NotSentError } from '../transport/http.js';
import type { HttpExchange } from '../transport/exchanges.js';
import { asListRead, PageWalk, pagingOf, type ListRead } from './list-reader.js';
import { recorded, replay } from '../evidence/report.js';

/** What a wait needs of the list. */
export interface ScanNeed {
  /**
   * `look`: every page asked from now on, from where the scan is, round to where it began, unless `found` ends it
   * first; `whole`: every page of a read that began after now (an absence).
   */
  kind: 'look' | 'whole';
  /** Whether a page's body holds what a look waits for: it needs no page after that one. */
  found?: (page: unknown) => boolean;
  /** The waiting test's work: once it has ended, the wait needs nothing more. */
  work?: Work;
}

/** A page of the scan: its answer, its place (the scan's `cycle`-th read from the first page, `index` in it). */
interface ScannedPage {
  response: ApiResponse;
  cycle: number;
  index: number;
  /** What the page's exchanges reported, for the reports of the waits it decided. */
  report: unknown[];
}

interface Waiter {
  need: ScanNeed;
  /**
   * The first page it counts, and when it began to wait: pages sent before then show nothing of its moment. A look
   * that began while the page at `index` waited for its turn at the pace counts it if it was sent after `at`.
   */
  from: { cycle: number; index: number; at: number };
  pages: ScannedPage[];
  settle: (outcome: { read: ListRead; report: unknown[] } | { error: unknown }) => void;
}

/**
 * One list's scan: a read from the first page that goes on while a wait needs its next page, and begins again from
 * the first page for waits that joined it late or need a whole read. Offsets and page numbers shift under new
 * records, so it never resumes from a remembered place: a look that joined late reads on to the end and round from
 * the first page to where it joined, and a record it missed in the shift is "not yet" for its next look.
 */
export class ListScan {
  private readonly waiters = new Set<Waiter>();
  /** The read in progress, undefined before its first page is asked; `cycle` counts the reads begun. */
  private walk: PageWalk | undefined;
  private cycle = 0;
  /** The place of the next page to ask for in the present read. */
  private nextIndex = 0;
  private scanning = false;
  /** Whether the page before `nextIndex` was asked for and is not answered yet. */
  private asking = false;

  constructor(
    private readonly api: ApiClient,
    private readonly path: string,
    private readonly options: RequestOptions,
    private readonly continuation?: string,
  ) {}

  /**
   * The pages that decided `need`, as one read: a look's page that holds what it looks for, or every page it read
   * when none did; a whole read's every page. A page refused answers as it is, to the waits that still needed it;
   * a list that cannot be read further fails them with the reader's error.
   */
  async read(need: ScanNeed): Promise<ListRead> {
    const outcome = await new Promise<Parameters<Waiter['settle']>[0]>((settle) => {
      // A whole read needs one begun after now: the next, unless the present one has asked for nothing yet. A look
      // may count the page asked for and not yet answered, if it was sent after now (`askNextPage`).
      const at = this.api.clock.now();
      const from =
        need.kind === 'look'
          ? { cycle: this.cycle, index: this.asking ? this.nextIndex - 1 : this.nextIndex, at }
          : this.nextIndex === 0
            ? { cycle: this.cycle, index: 0, at }
            : { cycle: this.cycle + 1, index: 0, at };
      this.waiters.add({ need, from, pages: [], settle });
      void this.scan();
    });
    if ('error' in outcome) throw outcome.error;
    replay(outcome.report);
    return outcome.read;
  }

  /** Whether `waiter` counts the page at (`cycle`, `index`): its own read's, or a look's next read up to its start. */
  private static counts({ need, from }: Waiter, cycle: number, index: number): boolean {
    if (cycle === from.cycle) return index >= from.index;
    return need.kind === 'look' && cycle === from.cycle + 1 && index < from.index;
  }

  private async scan(): Promise<void> {
    if (this.scanning) return;
    this.scanning = true;
    try {
      await this.askWhileNeeded();
    } catch (error) {
      // A fault of the scan's own is every waiter's: none is left waiting for a page nobody will ask for.
      for (const waiter of this.waiters) this.settle(waiter, { error });
      this.begin();
    } finally {
      this.scanning = false;
    }
    // A wait that began while the scan was deciding to stop.
    if (this.waiters.size > 0) void this.scan();
  }

  /** Asks for pages while a waiter needs one. */
  private async askWhileNeeded(): Promise<void> {
    for (;;) {
      for (const waiter of this.waiters) {
        const ended = waiter.need.work?.ended();
        if (ended !== undefined) this.settle(waiter, { error: new NotSentError(`GET ${this.path}`, ended) });
      }
      // Nobody waits: a later wait reads from the first page, as pages shift under new records meanwhile.
      if (this.waiters.size === 0) return this.begin();
      const needing = () => [...this.waiters].filter((each) => ListScan.counts(each, this.cycle, this.nextIndex));
      // Nobody needs the rest of this read (only whole reads wait, for one begun later): begin the next.
      if (needing().length === 0) this.begin();
      const waiters = needing();
      // Every waiter counts the present read's next page or the next read's first.
      if (waiters.length === 0) throw new Error(`the scan of ${this.path} has waiters but none needs a page`);
      await this.askNextPage(waiters);
    }
  }

  /** Asks for the present read's next page for `waiters`, who count it, and settles each that it decides. */
  private async askNextPage(waiters: Waiter[]): Promise<void> {
    const walk = (this.walk ??= new PageWalk(this.api, this.path, this.options, this.continuation));
    const index = this.nextIndex++;
    this.asking = true;
    const { value: response, error, report } = await recorded(() => walk.next());
    this.asking = false;
    // Looks that began while this page waited for its turn: it shows their moment only if it left after they began.
    for (const waiter of this.waiters)
      if (!waiters.includes(waiter) && waiter.from.cycle === this.cycle && waiter.from.index === index) {
        if (response && response.sentAt > waiter.from.at) waiters.push(waiter);
        else waiter.from.index += 1;
      }
    if (!response) {
      for (const waiter of waiters) this.settle(waiter, { error });
      return this.begin();
    }
    const page = { response, cycle: this.cycle, index, report };
    for (const waiter of waiters) {
      waiter.pages.push(page);
      let found: boolean;
      try {
        found = response.ok && (waiter.need.found?.(response.body) ?? false);
      } catch (error) {
        this.settle(waiter, { error }); // a page that moved its records (Layout changed)
        continue;
      }
      // A look that joined late covers the list once it is back where it joined, or at the end of the next read.
      const round =
        walk.complete && (waiter.from.index === 0 || this.cycle > waiter.from.cycle || waiter.need.kind === 'whole');
      const covered = round || (this.cycle > waiter.from.cycle && index + 1 === waiter.from.index);
      if (!response.ok || found || covered) this.decide(waiter, walk, found);
    }
    if (!response.ok || walk.complete) this.begin();
  }

  /** Settles `waiter` with the pages that decided it: the one that held what it looked for, or all it read. */
  private decide(waiter: Waiter, walk: PageWalk, found: boolean): void {
    const last = waiter.pages.at(-1)!;
    const deciding = found ? [last] : waiter.pages;
    const accepted = deciding.filter((page) => page.response.ok).map((page) => page.response);
    const exchanges: HttpExchange[] = deciding.flatMap((page) => page.response.exchanges);
    const complete = last.response.ok && !found;
    // A refused page is named by its place in the list, as a read alone names it: `page 2 answered 500`.
    const paging = {
      ...pagingOf(walk.convention, complete, accepted, exchanges.length),
      ...(!last.response.ok && { pages: last.index }),
    };
    const read = asListRead(last.response, accepted, paging, exchanges);
    this.settle(waiter, { read, report: deciding.flatMap((page) => page.report) });
  }

  private settle(waiter: Waiter, outcome: Parameters<Waiter['settle']>[0]): void {
    this.waiters.delete(waiter);
    waiter.settle(outcome);
  }

  /** The next page asked for is the first of a new read; the read before it is told to `onListRead`'s listeners. */
  private begin(): void {
    if (this.walk?.pages.length) this.walk.counted(this.options.operation, this.options.purpose);
    this.walk = undefined;
    this.cycle += 1;
    this.nextIndex = 0;
  }
}

/** The scans of one client's lists in a run, one per list address and query: a fixture, never module state. */
export class ListScans {
  private readonly scans = new Map<string, ListScan>();

  constructor(private readonly api: ApiClient) {}

  of(path: string, options: RequestOptions, continuation?: string): ListScan {
    const key = JSON.stringify([path, options.query ?? {}]);
    if (!this.scans.has(key)) this.scans.set(key, new ListScan(this.api, path, options, continuation));
    return this.scans.get(key)!;
  }
}
