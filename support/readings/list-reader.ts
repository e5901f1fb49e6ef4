// Owns reading a list across its pages by whatever paging convention the target uses (none is documented).
// A list it cannot read to its end is a ListIncompleteError, never a broken rule.
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';
import { isRecord, normalKey, type JsonRecord } from './facts.js';

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

/** The list could not be read to its end: nothing is known about the records it did not show. */
export class ListIncompleteError extends Error {
  override readonly name = 'ListIncompleteError';
  constructor(
    readonly path: string,
    readonly convention: PagingConvention,
    readonly pagesRead: number,
    reason: string,
  ) {
    super(`List could not be read completely: ${path} (${convention} paging) after ${pagesRead} page(s): ${reason}`);
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

// Objects that hold paging metadata (links.next, _links.next.href, meta.nextCursor, page.number), by
// their normalized key; item lists are never searched: an item's own "next" is not a page.
const CONTAINER_KEY = /^(links|cursors?|pagination|paging|page|meta|metadata|pageinfo|pageable)$/;

/** The body and the paging objects in it, outermost first. */
function pagingObjects(body: unknown, depth = 0): JsonRecord[] {
  if (!isRecord(body) || depth > 3) return [];
  return [
    body,
    ...Object.entries(body).flatMap(([key, value]) =>
      CONTAINER_KEY.test(normalKey(key)) ? pagingObjects(value, depth + 1) : [],
    ),
  ];
}

/** The next relation of an RFC 8288 `Link` header: `<https://…?page=3>; rel="next"`. */
function nextInHeader(link = ''): PageStep | undefined {
  for (const [, url = '', params = ''] of link.matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)/i.exec(params)?.[1];
    if (rel?.toLowerCase().split(/\s+/).includes('next')) return { convention: 'Link header', next: { url } };
  }
  return undefined;
}

function nextInBody(body: unknown): PageStep | undefined {
  for (const holder of pagingObjects(body)) {
    for (const [key, value] of Object.entries(holder)) {
      const param = NEXT_KEYS[normalKey(key)];
      const target = isRecord(value) ? value.href : value;
      if (param === undefined || typeof target !== 'string' || target === '') continue;
      // `next: { href }` is an address whatever it looks like; a string is one if it starts as a URL, path or query.
      return isRecord(value) || /^(https?:\/\/|\/|\?)/i.test(target)
        ? { convention: 'next link', next: { url: target } }
        : { convention: 'cursor', next: { query: { [param]: target } } };
    }
    // links: [{ rel: "next", href: "..." }]
    for (const value of Object.values(holder)) {
      if (!Array.isArray(value)) continue;
      const next = value.find((link) => isRecord(link) && String(link.rel).toLowerCase() === 'next');
      if (isRecord(next) && typeof next.href === 'string') return { convention: 'next link', next: { url: next.href } };
    }
  }
  return undefined;
}

type Fields = [string, unknown][];
const pagingFields = (body: unknown): Fields => pagingObjects(body).flatMap((holder) => Object.entries(holder));

function numberAt(fields: Fields, keys: readonly string[]): { key: string; value: number } | undefined {
  const [key, value] = fields.find(([name, each]) => keys.includes(normalKey(name)) && Number.isFinite(each)) ?? [];
  return key === undefined ? undefined : { key, value: value as number };
}

const booleanAt = (fields: Fields, keys: readonly string[]): boolean | undefined =>
  fields.find(([key, value]) => keys.includes(normalKey(key)) && typeof value === 'boolean')?.[1] as
    boolean | undefined;

/** The records of a page: the longest list of objects in it. */
function itemsOn(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (!isRecord(body)) return 0;
  return Math.max(0, ...Object.values(body).map(itemsOn));
}

const PAGE_NUMBER_KEYS = ['number', 'page', 'pagenumber', 'currentpage', 'pageindex'];
const SIZE_KEYS = ['size', 'pagesize', 'limit', 'perpage'];
const TOTAL_ITEMS_KEYS = ['totalelements', 'totalitems', 'total', 'totalcount', 'totalresults', 'count'];
const OFFSET_KEYS = ['offset', 'skip', 'start'];
const HAS_NEXT_KEYS = ['hasnext', 'hasmore', 'hasnextpage', 'more'];

function pageNumberStep(fields: Fields, firstPage: number | undefined): PageStep | undefined {
  const page = numberAt(fields, PAGE_NUMBER_KEYS);
  if (!page) return undefined;
  const size = numberAt(fields, SIZE_KEYS);
  const totalPagesField = numberAt(fields, ['totalpages', 'pagecount', 'pages']);
  const totalItems = numberAt(fields, TOTAL_ITEMS_KEYS);
  const last = booleanAt(fields, ['last', 'islast', 'lastpage']);
  const hasNext = booleanAt(fields, HAS_NEXT_KEYS);
  const totalPages =
    totalPagesField?.value ??
    (totalItems && size && size.value > 0 ? Math.ceil(totalItems.value / size.value) : undefined);
  if (totalPages === undefined && last === undefined && hasNext === undefined) return undefined;
  // Zero- or one-based: the first page says which; else Spring's `number` starts at 0, most `page`s at 1.
  const base = firstPage ?? (normalKey(page.key) === 'number' || page.value === 0 ? 0 : 1);
  const done = last === true || hasNext === false || (totalPages !== undefined && page.value - base + 1 >= totalPages);
  if (done) return { convention: 'page number' };
  const param = ['number', 'currentpage'].includes(normalKey(page.key)) ? 'page' : page.key;
  const query: Record<string, string> = { [param]: String(page.value + 1) };
  if (size) query[normalKey(size.key) === 'limit' ? 'limit' : size.key] = String(size.value);
  return { convention: 'page number', next: { query } };
}

function offsetStep(body: unknown, fields: Fields): PageStep | undefined {
  const offset = numberAt(fields, OFFSET_KEYS);
  if (!offset) return undefined;
  const limit = numberAt(fields, SIZE_KEYS);
  const total = numberAt(fields, TOTAL_ITEMS_KEYS);
  const hasMore = booleanAt(fields, ['hasmore', 'hasnext', 'more']);
  if (total === undefined && hasMore === undefined) return undefined;
  const shown = itemsOn(body);
  const nextOffset = offset.value + (limit?.value ?? shown);
  if (shown === 0 && hasMore !== false && total !== undefined && offset.value < total.value) {
    return {
      convention: 'offset',
      unreachable: `the total says ${total.value} records, but the page at offset ${offset.value} is empty`,
    };
  }
  const done =
    hasMore === false || (hasMore === undefined && total !== undefined && nextOffset >= total.value) || shown === 0;
  if (done) return { convention: 'offset' };
  const query: Record<string, string> = { [offset.key]: String(nextOffset) };
  if (limit) query[limit.key] = String(limit.value);
  return { convention: 'offset', next: { query } };
}

/** Where the page after this one is, by the first convention the answer follows; `firstPage`: the first's number. */
export function nextPage(response: PageSource, firstPage?: number): PageStep {
  const linked = nextInHeader(response.headers.link) ?? nextInBody(response.body);
  if (linked?.next && 'url' in linked.next && response.url)
    return { ...linked, next: { url: new URL(linked.next.url, response.url).toString() } };
  if (linked) return linked;
  const fields = pagingFields(response.body);
  const more = booleanAt(fields, HAS_NEXT_KEYS) === true;
  return (
    pageNumberStep(fields, firstPage) ??
    offsetStep(response.body, fields) ?? {
      convention: 'single page',
      ...(more && { unreachable: 'the answer says more records follow (hasMore) but gives no way to ask for them' }),
    }
  );
}

export interface ListRead extends ApiResponse {
  /** `complete`: read from its first page to its last. */
  paging: { convention: PagingConvention; pages: number; complete: boolean };
}

/**
 * GETs `path` and the pages after it until `until` holds for the bodies read so far. Several pages answer as the
 * last response with `body` = the page bodies and every exchange; the first failing page answers as it is.
 */
export async function readPages(
  api: ApiClient,
  path: string,
  options: RequestOptions = {},
  until: (bodies: unknown[]) => boolean = () => false,
  { maxPages = 500 } = {},
): Promise<ListRead> {
  const read: ApiResponse[] = [];
  const asked = new Set<string>();
  let convention: PagingConvention = 'single page';
  let firstPage: number | undefined;
  let at: NextPage = { query: {} };
  for (;;) {
    const page = await ('url' in at
      ? api.request('GET', at.url, { ...options, query: undefined })
      : api.request('GET', path, { ...options, query: { ...options.query, ...at.query } }));
    if (!page.ok) return { ...page, paging: { convention, pages: read.length, complete: false } };
    read.push(page);
    const step = nextPage(page, firstPage);
    convention = step.convention;
    firstPage ??= numberAt(pagingFields(page.body), PAGE_NUMBER_KEYS)?.value;
    const complete = !step.next && !step.unreachable;
    if (complete || until(read.map((each) => each.body))) {
      const paging = { convention, pages: read.length, complete };
      if (read.length === 1) return { ...page, paging };
      return {
        ...page,
        paging,
        body: read.map((each) => each.body),
        text: read.map((each) => each.text).join('\n'),
        exchanges: read.flatMap((each) => each.exchanges),
      };
    }
    const key = JSON.stringify(step.next);
    // Stopping silently at the cap would let "not on any page" pass when it was only on a later page.
    const unread =
      step.unreachable ??
      (read.length >= maxPages ? `a next page was still offered after ${maxPages} pages` : undefined) ??
      (asked.has(key) ? `the next page ${key} was already read: the paging loops` : undefined);
    if (unread !== undefined) throw new ListIncompleteError(path, convention, read.length, unread);
    asked.add(key);
    at = step.next!;
  }
}
