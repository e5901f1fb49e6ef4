// Owns reading a list across its pages by whatever paging convention the target uses (none is documented).
// A list it cannot read to its end is a ListIncompleteError, never a broken rule.
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';
import type { HttpExchange } from '../transport/exchanges.js';
import { fieldText, isRecord, normalKey, type JsonRecord } from './json.js';

export type PagingConvention = 'single page' | 'Link header' | 'next link' | 'cursor' | 'page number' | 'offset';

/** How to ask for the next page: an address, or query parameters added to the first request. */
export type NextPage = { url: string } | { query: Record<string, string> };

type PageSource = Pick<ApiResponse, 'body' | 'headers'> & { url?: string };

export interface PageStep {
  convention: PagingConvention;
  /** Undefined on the last page. */
  next?: NextPage;
  /** More pages exist by the convention's own word, but no way to ask for them was given. */
  unreachable?: string;
}

/** `GET /v3/consumers?cursor=2 → 500`, the last few of many. */
function requestLines(requests: readonly HttpExchange[]): string {
  const lines = requests.map(({ method, url, status }) => {
    const { pathname, search } = new URL(url, 'http://target');
    return `${method} ${pathname}${search} → ${status ?? 'no answer'}`;
  });
  return lines.length > 4 ? `${lines.length - 3} earlier, then ${lines.slice(-3).join(', ')}` : lines.join(', ');
}

/** The list could not be read to its end: nothing is known about the records it did not show. */
export class ListIncompleteError extends Error {
  override readonly name = 'ListIncompleteError';
  constructor(
    readonly path: string,
    readonly convention: PagingConvention,
    readonly pagesRead: number,
    reason: string,
    /** Every request the read sent, the refused or last one included. */
    readonly requests: readonly HttpExchange[],
  ) {
    // Before a first page is read, no convention has been seen.
    const paging = pagesRead > 0 ? ` (${convention} paging)` : '';
    super(
      `List could not be read completely: ${path}${paging} after ${pagesRead} page(s) and ${requests.length} ` +
        `request(s): ${reason} (${requestLines(requests)})`,
    );
  }
}

// Keys holding the next page, with the query parameter a cursor value goes back in.
const NEXT_KEYS: Record<string, string> = {
  next: 'cursor',
  nextlink: 'cursor',
  nexturl: 'cursor',
  nextcursor: 'cursor',
  nextpagetoken: 'pageToken',
  nexttoken: 'token',
  continuationtoken: 'continuationToken',
};

// Other keys that name the next page (`nextPage`, `next_page_url`, `@odata.nextLink`): followed when they hold an
// address; holding anything else, they still say that more records follow.
const NEXT_LIKE_KEY = /^next(page)?(link|url|uri|href|cursor|token|key|marker|offset|start|number|index)?$/;

/** A key's name without case, `_`, `-` or namespace: `@odata.nextLink` → `nextlink`, `@odata.count` → `count`. */
const nameOf = (key: string): string => normalKey(key).replace(/^.*[.@]/, '');
const cursorParam = (key: string): string | undefined =>
  Object.hasOwn(NEXT_KEYS, nameOf(key)) ? NEXT_KEYS[nameOf(key)] : undefined;
const namesNext = (key: string): boolean => cursorParam(key) !== undefined || NEXT_LIKE_KEY.test(nameOf(key));

// An absolute URL, a path, a query, or a relative path with a query: an address, never a cursor's value.
const ADDRESS = /^(https?:\/\/|\.{0,2}\/|\?)|^[\w.~%-]+(\/[\w.~%-]+)*\?[^\s=&]+=/i;

// Objects that hold paging metadata (links.next, _links.next.href, meta.nextCursor, page.number), by
// their normalized key; item lists are never searched: an item's own "next" is not a page.
const CONTAINER_KEY = /^(links|cursors?|pagination|paging|page|meta|metadata|pageinfo|pageable)$/;

/** The body and the paging objects in it, outermost first, each with its JSON Pointer. */
function pagingHolders(body: unknown, pointer = '', depth = 0): { holder: JsonRecord; pointer: string }[] {
  if (!isRecord(body) || depth > 3) return [];
  return [
    { holder: body, pointer },
    ...Object.entries(body).flatMap(([key, value]) =>
      CONTAINER_KEY.test(normalKey(key)) ? pagingHolders(value, `${pointer}/${key}`, depth + 1) : [],
    ),
  ];
}

const pagingObjects = (body: unknown): JsonRecord[] => pagingHolders(body).map(({ holder }) => holder);

/** The next relation of an RFC 8288 `Link` header: `<https://…?page=3>; rel="next"`. */
function nextInHeader(link = ''): PageStep | undefined {
  for (const [, url = '', params = ''] of link.matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)/i.exec(params)?.[1];
    if (rel?.toLowerCase().split(/\s+/).includes('next')) return { convention: 'Link header', next: { url } };
  }
  return undefined;
}

/** The next page a body names, and the pointer of the field that names it. */
function nextInBodyAt(body: unknown): { step: PageStep; at: string; param?: string } | undefined {
  for (const { holder, pointer } of pagingHolders(body)) {
    for (const [key, value] of Object.entries(holder)) {
      if (!namesNext(key)) continue;
      const target = isRecord(value) ? (value.href ?? value.url) : value;
      if (typeof target !== 'string' || target === '') continue;
      const at = `${pointer}/${key}`;
      // `next: { href }` is an address whatever it looks like; a string is one if it reads as a URL, path or query.
      if (isRecord(value) || ADDRESS.test(target))
        return { step: { convention: 'next link', next: { url: target } }, at };
      const param = cursorParam(key);
      if (param !== undefined)
        return { step: { convention: 'cursor', next: { query: { [param]: target } } }, at, param };
    }
    // links: [{ rel: "next", href: "..." }]
    for (const [key, value] of Object.entries(holder)) {
      if (!Array.isArray(value)) continue;
      const next = value.find((link) => isRecord(link) && String(link.rel).toLowerCase() === 'next');
      if (isRecord(next) && typeof next.href === 'string')
        return { step: { convention: 'next link', next: { url: next.href } }, at: `${pointer}/${key}` };
    }
  }
  return undefined;
}

const nextInBody = (body: unknown): PageStep | undefined => nextInBodyAt(body)?.step;

/** Where a page names its next one, and the query parameter a cursor goes back in. */
export interface Continuation {
  at: string;
  param?: string;
}

/**
 * Where a page names its next one: `Link` (the header), or the pointer of the body field (`/next`, `/nextPageToken`,
 * `/meta/nextCursor`); undefined where no field does (page numbers and offsets are computed, and a last page).
 */
export function continuationOf(page: PageSource): Continuation | undefined {
  if (nextInHeader(page.headers.link)) return { at: 'Link' };
  const found = nextInBodyAt(page.body);
  return found && { at: found.at, ...(found.param ? { param: found.param } : {}) };
}

type Fields = [string, unknown][];
const pagingFields = (body: unknown): Fields => pagingObjects(body).flatMap((holder) => Object.entries(holder));

function numberAt(fields: Fields, keys: readonly string[]): { key: string; value: number } | undefined {
  const [key, value] = fields.find(([name, each]) => keys.includes(nameOf(name)) && Number.isFinite(each)) ?? [];
  return key === undefined ? undefined : { key, value: value as number };
}

const booleanAt = (fields: Fields, keys: readonly string[]): boolean | undefined =>
  fields.find(([key, value]) => keys.includes(nameOf(key)) && typeof value === 'boolean')?.[1] as boolean | undefined;

/** The records of a page: the longest list of objects in it. */
function itemsOn(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (!isRecord(body)) return 0;
  return Math.max(0, ...Object.values(body).map(itemsOn));
}

const PAGE_NUMBER_KEYS = ['number', 'page', 'pagenumber', 'currentpage', 'pageindex'];
// In the order they are believed: where a page states both, `size` is often the records it holds, `limit` the most.
const SIZE_KEYS = ['limit', 'pagesize', 'perpage', 'size'];
const TOTAL_ITEMS_KEYS = ['totalelements', 'totalitems', 'total', 'totalcount', 'totalresults', 'count'];
const TOTAL_PAGES_KEYS = ['totalpages', 'pagecount', 'pages'];
const TOTAL_HEADERS = ['x-total-count', 'x-total'];
const OFFSET_KEYS = ['offset', 'skip', 'start'];
const HAS_NEXT_KEYS = ['hasnext', 'hasmore', 'hasnextpage', 'more'];
const LAST_KEYS = ['last', 'islast', 'lastpage', 'islastpage'];

/** The largest number of records a page holds by its own word. */
function sizeAt(fields: Fields): { key: string; value: number } | undefined {
  return SIZE_KEYS.map((key) => numberAt(fields, [key])).find((size) => size !== undefined && size.value > 0);
}

/** How many records the whole list holds by its own word: a total in the body or an `X-Total-Count` header. */
function totalAt({ headers }: PageSource, fields: Fields): { key: string; value: number } | undefined {
  const header = TOTAL_HEADERS.find((name) => /^\d+$/.test(headers[name]?.trim() ?? ''));
  return (
    numberAt(fields, TOTAL_ITEMS_KEYS) ??
    (header === undefined ? undefined : { key: header, value: Number(headers[header]) })
  );
}

function pageNumberStep(fields: Fields, firstPage: number | undefined, shown: number): PageStep | undefined {
  const page = numberAt(fields, PAGE_NUMBER_KEYS);
  if (!page) return undefined;
  const size = sizeAt(fields);
  const totalPagesField = numberAt(fields, TOTAL_PAGES_KEYS);
  const totalItems = numberAt(fields, TOTAL_ITEMS_KEYS);
  const last = booleanAt(fields, LAST_KEYS);
  const hasNext = booleanAt(fields, HAS_NEXT_KEYS);
  const totalPages =
    totalPagesField?.value ??
    (totalItems && size && size.value > 0 ? Math.ceil(totalItems.value / size.value) : undefined);
  if (totalPages === undefined && last === undefined && hasNext === undefined && size === undefined) return undefined;
  // Zero- or one-based: the first page says which; else Spring's `number` starts at 0, most `page`s at 1.
  const base = firstPage ?? (normalKey(page.key) === 'number' || page.value === 0 ? 0 : 1);
  // Without totals or flags, a page short of its size is the last.
  const short = totalPages === undefined && last === undefined && hasNext === undefined && shown < (size?.value ?? 0);
  const done =
    last === true || hasNext === false || (totalPages !== undefined && page.value - base + 1 >= totalPages) || short;
  if (done) return { convention: 'page number' };
  const param = ['number', 'currentpage'].includes(normalKey(page.key)) ? 'page' : page.key;
  const query: Record<string, string> = { [param]: String(page.value + 1) };
  if (size) query[normalKey(size.key) === 'limit' ? 'limit' : size.key] = String(size.value);
  return { convention: 'page number', next: { query } };
}

function offsetStep(fields: Fields, shown: number): PageStep | undefined {
  const offset = numberAt(fields, OFFSET_KEYS);
  if (!offset) return undefined;
  const limit = sizeAt(fields);
  const total = numberAt(fields, TOTAL_ITEMS_KEYS);
  const hasMore = booleanAt(fields, HAS_NEXT_KEYS);
  if (total === undefined && hasMore === undefined && limit === undefined) return undefined;
  const nextOffset = offset.value + (limit?.value ?? shown);
  if (shown === 0 && hasMore !== false && total !== undefined && offset.value < total.value) {
    return {
      convention: 'offset',
      unreachable: `the total says ${total.value} records, but the page at offset ${offset.value} is empty`,
    };
  }
  // Without a total or a flag, a page short of its limit is the last.
  const ends = total !== undefined ? nextOffset >= total.value : shown < (limit?.value ?? 0);
  const done = hasMore === false || booleanAt(fields, LAST_KEYS) === true || (hasMore === undefined && ends);
  if (done || (shown === 0 && hasMore !== true)) return { convention: 'offset' };
  const query: Record<string, string> = { [offset.key]: String(nextOffset) };
  if (limit) query[limit.key] = String(limit.value);
  return { convention: 'offset', next: { query } };
}

/**
 * A page no convention above continues: the last, unless it says that more follow (a flag, a next-page field the
 * reader cannot follow, or as many records as its own limit with nothing to say the list ends there).
 */
function singlePageStep(response: PageSource, fields: Fields, shown: number, learnedEnd: boolean): PageStep {
  const [moreKey] = fields.find(([key, value]) => HAS_NEXT_KEYS.includes(nameOf(key)) && value === true) ?? [];
  const [markerKey, marker] =
    fields.find(([key, value]) => namesNext(key) && value !== null && value !== false && value !== '') ?? [];
  const ends =
    response.headers.link !== undefined ||
    booleanAt(fields, LAST_KEYS) === true ||
    booleanAt(fields, HAS_NEXT_KEYS) === false ||
    fields.some(([key, value]) => namesNext(key) && (value === null || value === false || value === ''));
  const size = sizeAt(fields);
  // A stated total is compared with what was read once the pages end (`readPages`).
  // A page without the continuation its list was learned with ends it, however full (support/layout/learning.ts).
  const full =
    !ends && !learnedEnd && totalAt(response, fields) === undefined && size !== undefined && shown >= size.value;
  const unreachable =
    moreKey !== undefined
      ? `the answer says more records follow (${moreKey}) but gives no way to ask for them`
      : markerKey !== undefined
        ? `${fieldText({ path: markerKey, value: marker })} marks a next page the reader cannot ask for`
        : full
          ? `the page holds ${shown} record(s), as many as its ${size.key} = ${size.value}, and gives no way to ` +
            'ask for more'
          : undefined;
  return { convention: 'single page', ...(unreachable && { unreachable }) };
}

/**
 * Where the page after this one is, by the first convention the answer follows; `firstPage`: the first's number;
 * `learnedEnd`: the list's layout file names its continuation, and this page has none.
 */
export function nextPage(response: PageSource, firstPage?: number, learnedEnd = false): PageStep {
  const linked = nextInHeader(response.headers.link) ?? nextInBody(response.body);
  if (linked?.next && 'url' in linked.next && response.url)
    return { ...linked, next: { url: new URL(linked.next.url, response.url).toString() } };
  if (linked) return linked;
  const fields = pagingFields(response.body);
  const shown = itemsOn(response.body);
  return (
    pageNumberStep(fields, firstPage, shown) ??
    offsetStep(fields, shown) ??
    singlePageStep(response, fields, shown, learnedEnd)
  );
}

/** A total the last page states beyond the records or pages read: the list holds more than was shown. */
function beyondRead(last: PageSource, pages: PageSource[]): string | undefined {
  const fields = pagingFields(last.body);
  const records = pages.reduce((sum, page) => sum + itemsOn(page.body), 0);
  const total = totalAt(last, fields);
  if (total && total.value > records)
    return `${total.key} = ${total.value}, but the ${pages.length} page(s) read held ${records} record(s)`;
  const totalPages = numberAt(fields, TOTAL_PAGES_KEYS);
  if (totalPages && totalPages.value > pages.length)
    return `${totalPages.key} = ${totalPages.value}, but ${pages.length} page(s) were read`;
  return undefined;
}

/** What a read of a list cost: its pages and requests (retries included), and the records its pages held. */
export interface ListPaging {
  convention: PagingConvention;
  pages: number;
  /** Read from its first page to its last. */
  complete: boolean;
  requests: number;
  records: number;
  /** The most records one page held: a page size the target took shows here. */
  fullestPage: number;
}

export interface ListRead extends ApiResponse {
  paging: ListPaging;
  /** The bodies of the pages read, in order; none when its first page was refused. */
  pages: unknown[];
  /** Where its pages named their next one (`continuationOf`), when one did: what learning records. */
  continuedBy?: Continuation;
}

/** A read that ended, answered or not read completely, with the operation and purpose it was sent under. */
export type ListReadCost = ListPaging & Pick<RequestOptions, 'operation' | 'purpose'>;

const readListeners = new Set<(read: ListReadCost) => void>();

/** Calls `listener` after every read of a list that ended (the observed contract counts pages per list). */
export function onListRead(listener: (read: ListReadCost) => void): () => void {
  readListeners.add(listener);
  return () => readListeners.delete(listener);
}

/** `31 pages, 33 requests`: what a read cost, as the report says it. */
export const readCost = ({ pages, requests }: ListPaging): string =>
  `${pages} page${pages === 1 ? '' : 's'}, ${requests} request${requests === 1 ? '' : 's'}`;

/** A next page on another host than the list's: the client's bearer token is never sent there. */
function elsewhere(next: NextPage | undefined, pageUrl: string | undefined): string | undefined {
  if (!next || !('url' in next) || !pageUrl) return undefined;
  const { origin } = new URL(next.url);
  return origin === new URL(pageUrl).origin ? undefined : `the next page is on another host, ${origin}, not followed`;
}

/**
 * One read of a list from its first page, a page at a time (`next`), by whatever convention its pages follow; the
 * read's state for `readPages` and for a run's scan of the list (support/readings/list-scan.ts).
 */
export class PageWalk {
  /** The pages accepted so far, in order. */
  readonly pages: ApiResponse[] = [];
  /** Every request the read sent, refused and retried ones included. */
  readonly exchanges: HttpExchange[] = [];
  convention: PagingConvention = 'single page';
  /** Where its pages named their next one (`continuationOf`), when one did: what learning records. */
  continuedBy?: Continuation;
  private firstPage: number | undefined;
  private at: NextPage | undefined = { query: {} };
  private readonly asked = new Set<string>();
  /** Why the page after the last cannot be read, found when that page was. */
  private unread: string | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly path: string,
    private readonly options: RequestOptions,
    /** The continuation the layout file names: a page without it ends the list. */
    private readonly continuation?: string,
    private readonly maxPages = 500,
  ) {}

  /** Its last page was read: no next one, and nothing beyond what was read. */
  get complete(): boolean {
    return this.at === undefined && this.unread === undefined;
  }

  /**
   * GETs the next page: an accepted one is kept, a refused one answers as it is; a list that cannot be read further
   * is a ListIncompleteError when its next page is asked for, so that a look that found its record on the last page
   * read stands.
   */
  async next(): Promise<ApiResponse> {
    if (this.unread !== undefined)
      throw new ListIncompleteError(this.path, this.convention, this.pages.length, this.unread, this.exchanges);
    const at = this.at ?? { query: {} };
    const options = { ...this.options, continues: this.pages.length > 0 };
    const page = await ('url' in at
      ? this.api.request('GET', at.url, { ...options, query: undefined })
      : this.api.request('GET', this.path, { ...options, query: { ...options.query, ...at.query } }));
    this.exchanges.push(...page.exchanges);
    if (!page.ok) return page;
    this.pages.push(page);
    const via = continuationOf(page);
    this.continuedBy ??= via;
    // A page naming its next one anywhere is followed by the reader's words, as a list without a layout file is.
    const step = nextPage(page, this.firstPage, this.continuation !== undefined && via === undefined);
    // A last page names no next one: the list's convention is the one its earlier pages followed.
    if (this.pages.length === 1 || step.convention !== 'single page') this.convention = step.convention;
    this.firstPage ??= numberAt(pagingFields(page.body), PAGE_NUMBER_KEYS)?.value;
    const beyond = step.next || step.unreachable ? undefined : beyondRead(page, this.pages);
    if (!step.next && !step.unreachable && !beyond) {
      this.at = undefined;
      return page;
    }
    const key = JSON.stringify(step.next);
    // Stopping silently at the cap would let "not on any page" pass when it was only on a later page.
    this.unread =
      step.unreachable ??
      beyond ??
      elsewhere(step.next, page.url) ??
      (this.pages.length >= this.maxPages ? `a next page was still offered after ${this.maxPages} pages` : undefined) ??
      (this.asked.has(key) ? `the next page ${key} was already read: the paging loops` : undefined);
    this.asked.add(key);
    this.at = step.next;
    return page;
  }

  /** What the read cost so far, told to `onListRead`'s listeners. */
  counted(operation?: string, purpose?: string): ListPaging {
    const paging = pagingOf(this.convention, this.complete, this.pages, this.exchanges.length);
    for (const listener of readListeners) listener({ ...paging, operation, purpose });
    return paging;
  }
}

/** What `pages`, read by `convention` with `requests` requests, cost and held. */
export function pagingOf(
  convention: PagingConvention,
  complete: boolean,
  pages: readonly ApiResponse[],
  requests: number,
): ListPaging {
  const records = pages.map((page) => itemsOn(page.body));
  return {
    convention,
    pages: pages.length,
    complete,
    requests,
    records: records.reduce((sum, each) => sum + each, 0),
    fullestPage: Math.max(0, ...records),
  };
}

/** Pages read as one answer: the last response with `body` = the page bodies and every exchange. */
export function asListRead(
  last: ApiResponse,
  pages: readonly ApiResponse[],
  paging: ListPaging,
  exchanges: readonly HttpExchange[],
  continuedBy?: Continuation,
): ListRead {
  const bodies = pages.map((each) => each.body);
  const read = { ...last, paging, pages: bodies, ...(continuedBy && { continuedBy }) };
  if (pages.length <= 1 && last.ok) return read;
  const text = last.ok ? pages.map((each) => each.text).join('\n') : last.text;
  return { ...read, body: last.ok ? bodies : last.body, text, exchanges: [...exchanges] };
}

/**
 * GETs `path` and the pages after it until `until` holds for the bodies read so far. Several pages answer as the
 * last response with `body` = the page bodies and every exchange; the first failing page answers as it is, with the
 * exchanges of the pages before it.
 */
export async function readPages(
  api: ApiClient,
  path: string,
  options: RequestOptions = {},
  until: (bodies: unknown[]) => boolean = () => false,
  { maxPages = 500, continuation }: { maxPages?: number; continuation?: string } = {},
): Promise<ListRead> {
  const walk = new PageWalk(api, path, options, continuation, maxPages);
  // Past its first page a read costs what the list's length costs: the run's time, not the test's own.
  let laterPages: (() => void) | undefined;
  try {
    for (;;) {
      const page = await walk.next().catch((error: unknown) => {
        if (error instanceof ListIncompleteError) walk.counted(options.operation, options.purpose);
        throw error;
      });
      const bodies = walk.pages.map((each) => each.body);
      if (!page.ok || walk.complete || until(bodies)) {
        const paging = walk.counted(options.operation, options.purpose);
        return asListRead(page, walk.pages, paging, walk.exchanges, walk.continuedBy);
      }
      laterPages ??= api.work?.laterPages();
    }
  } finally {
    laterPages?.();
  }
}
