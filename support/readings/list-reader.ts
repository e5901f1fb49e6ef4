// Owns reading a list across its pages by whatever paging convention the target uses (none is
// documented): a next link in the body or an RFC 8288 `Link` header, a cursor or page token, page
// numbers (`number`/`page` with `totalPages`, `last`, `hasNext`, `totalElements`), offset and limit
// with `total` or `hasMore`. A list it cannot read to its end is a ListIncompleteError, never a broken rule.
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';
import { isRecord, normalKey, type JsonRecord } from './lookup.js';

export type PagingConvention = 'single page' | 'Link header' | 'next link' | 'cursor' | 'page number' | 'offset';

/** How to ask for the next page: an address, or query parameters added to the first request. */
export type NextPage = { url: string } | { query: Record<string, string> };

export interface PageStep {
  convention: PagingConvention;
  /** Undefined on the last page. */
  next?: NextPage;
  /** More pages exist by the convention's own word, but no way to ask for them was given. */
  unreachable?: string;
}

export type PageSource = Pick<ApiResponse, 'body' | 'headers'> & { url?: string };

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

function nextInHeader(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const [target = '', ...params] = part.split(';');
    const url = /<([^>]*)>/.exec(target)?.[1];
    const rel = params
      .map((param) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param)?.[1])
      .find((value) => value !== undefined);
    if (url !== undefined && rel?.toLowerCase().split(/\s+/).includes('next')) return url;
  }
  return undefined;
}

const looksLikeAddress = (value: string): boolean => /^(https?:\/\/|\/|\?)/i.test(value);

function nextInBody(body: unknown): PageStep | undefined {
  for (const holder of pagingObjects(body)) {
    for (const [key, value] of Object.entries(holder)) {
      const param = NEXT_KEYS[normalKey(key)];
      if (param === undefined) continue;
      if (isRecord(value) && typeof value.href === 'string' && value.href !== '')
        return { convention: 'next link', next: { url: value.href } };
      if (typeof value === 'string' && value !== '') {
        return looksLikeAddress(value)
          ? { convention: 'next link', next: { url: value } }
          : { convention: 'cursor', next: { query: { [param]: value } } };
      }
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

/** The first finite number among the keys, with the key it was found under. */
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
  return Math.max(
    0,
    ...Object.values(body).map((value) => (Array.isArray(value) ? value.length : isRecord(value) ? itemsOn(value) : 0)),
  );
}

const PAGE_NUMBER_KEYS = ['number', 'page', 'pagenumber', 'currentpage', 'pageindex'];
const SIZE_KEYS = ['size', 'pagesize', 'limit', 'perpage'];
const TOTAL_ITEMS_KEYS = ['totalelements', 'totalitems', 'total', 'totalcount', 'totalresults', 'count'];
const OFFSET_KEYS = ['offset', 'skip', 'start'];

function pageNumberStep(fields: Fields, firstPage: number | undefined): PageStep | undefined {
  const page = numberAt(fields, PAGE_NUMBER_KEYS);
  if (!page) return undefined;
  const size = numberAt(fields, SIZE_KEYS);
  const totalPagesField = numberAt(fields, ['totalpages', 'pagecount', 'pages']);
  const totalItems = numberAt(fields, TOTAL_ITEMS_KEYS);
  const last = booleanAt(fields, ['last', 'islast', 'lastpage']);
  const hasNext = booleanAt(fields, ['hasnext', 'hasmore', 'hasnextpage', 'more']);
  const totalPages =
    totalPagesField?.value ??
    (totalItems && size && size.value > 0 ? Math.ceil(totalItems.value / size.value) : undefined);
  if (totalPages === undefined && last === undefined && hasNext === undefined) return undefined;
  // Zero- or one-based: the first page says which; without it, Spring's `number` starts at 0 and
  // most `page`s at 1.
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

/**
 * Where the page after this one is, by the first convention the answer follows. `firstPage` is the
 * page number the first page carried (page-number paging is zero- or one-based).
 */
export function nextPage(response: PageSource, firstPage?: number): PageStep {
  const header = nextInHeader(response.headers.link);
  if (header !== undefined)
    return {
      convention: 'Link header',
      next: { url: new URL(header, response.url ?? 'http://relative.invalid').toString() },
    };
  const inBody = nextInBody(response.body);
  if (inBody)
    return inBody.next && 'url' in inBody.next && response.url
      ? { ...inBody, next: { url: new URL(inBody.next.url, response.url).toString() } }
      : inBody;
  const fields = pagingFields(response.body);
  const more = booleanAt(fields, ['hasmore', 'hasnext', 'more', 'hasnextpage']) === true;
  return (
    pageNumberStep(fields, firstPage) ??
    offsetStep(response.body, fields) ?? {
      convention: 'single page',
      ...(more && { unreachable: 'the answer says more records follow (hasMore) but gives no way to ask for them' }),
    }
  );
}

const MAX_PAGES = 500;

export interface ListRead extends ApiResponse {
  /** `complete`: read from its first page to its last. */
  paging: { convention: PagingConvention; pages: number; complete: boolean };
}

/**
 * GETs `path` and the pages after it, until `until` holds for the bodies
 * read so far (a wanted record was found; a check that something is absent reads them all). Several
 * pages answer as the last response with `body` = the page bodies and every exchange; the first failing
 * page is returned as it is; a list that cannot be read to its end throws ListIncompleteError.
 */
export async function readPages(
  api: ApiClient,
  path: string,
  options: RequestOptions = {},
  until: (bodies: unknown[]) => boolean = () => false,
  { maxPages = MAX_PAGES } = {},
): Promise<ListRead> {
  const fetchPage = (at: NextPage | undefined): Promise<ApiResponse> => {
    if (at === undefined) return api.request('GET', path, options);
    return 'url' in at
      ? api.request('GET', at.url, { ...options, query: undefined })
      : api.request('GET', path, { ...options, query: { ...options.query, ...at.query } });
  };
  const read: ApiResponse[] = [];
  const asked = new Set<string>();
  let convention: PagingConvention = 'single page';
  let firstPage: number | undefined;
  let complete: boolean;
  let at: NextPage | undefined;
  for (;;) {
    const page = await fetchPage(at);
    if (!page.ok) return { ...page, paging: { convention, pages: read.length, complete: false } };
    read.push(page);
    const step = nextPage(page, firstPage);
    convention = step.convention;
    // Page numbers count from what the list's first page carries.
    firstPage ??= numberAt(pagingFields(page.body), PAGE_NUMBER_KEYS)?.value;
    complete = !step.next && !step.unreachable;
    if (complete || until(read.map((each) => each.body))) break;
    const key = JSON.stringify(step.next);
    // Stopping silently at the cap would let "not on any page" pass when it was only on a later page.
    const unread =
      step.unreachable ??
      (read.length >= maxPages ? `a next page was still offered after ${maxPages} pages` : undefined) ??
      (asked.has(key) ? `the next page ${key} was already read: the paging loops` : undefined);
    if (unread !== undefined) throw new ListIncompleteError(path, convention, read.length, unread);
    asked.add(key);
    at = step.next;
  }
  const last = read[read.length - 1]!;
  const paging = { convention, pages: read.length, complete };
  if (read.length === 1) return { ...last, paging };
  return {
    ...last,
    paging,
    body: read.map((each) => each.body),
    text: read.map((each) => each.text).join('\n'),
    exchanges: read.flatMap((each) => each.exchanges),
  };
}
