// Owns finding documented values in undocumented response layouts, and reading lists across their pages.
// The documentation shows no response layouts. Specs find documented values through these
// functions (a key or a value anywhere, records wherever the list is, pages wherever the next
// link is), so no spec depends on a guessed layout.
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';

export type JsonRecord = Record<string, unknown>;
export type Scalar = string | number | boolean;

/** All values under `key` (case-insensitive) at any depth, outermost first. */
export function findValues(body: unknown, key: string): unknown[] {
  const wanted = key.toLowerCase();
  const found: unknown[] = [];
  walk(body, (record) => {
    for (const [name, value] of Object.entries(record)) if (name.toLowerCase() === wanted) found.push(value);
  });
  return found;
}

/** True when the scalar occurs anywhere in the body (strings compared exactly, never as substrings). */
export function containsValue(body: unknown, value: Scalar): boolean {
  if (body === value) return true;
  if (Array.isArray(body)) return body.some((item) => containsValue(item, value));
  if (isRecord(body)) return Object.values(body).some((item) => containsValue(item, value));
  return false;
}

// ---------------------------------------------------------------------------------------------
// Pagination

/** Where the next page is: a URL, or a cursor to send as a query parameter of the same request. */
export type NextPage = string | { param: string; value: string };

export type PageSource = Pick<ApiResponse, 'body' | 'headers'> & { url?: string };

// Keys holding the next page, with the query parameter a cursor value goes back in.
const NEXT_KEYS: Record<string, string> = {
  next: 'cursor',
  nextpage: 'page',
  nextlink: 'cursor',
  nexturl: 'cursor',
  nextcursor: 'cursor',
  nextpagetoken: 'pageToken',
  nexttoken: 'token',
};

// Containers that wrap the next key (links.next, _links.next.href, cursor.next, pagination.next,
// meta.next, paging.next). Item lists are never searched: an item's own "next" is not a page.
const CONTAINER_KEYS = new Set(['links', '_links', 'cursor', 'cursors', 'pagination', 'paging', 'page', 'meta', '_meta', 'metadata']);

/** The next page offered by a response: body keys or a `Link: <...>; rel="next"` header; undefined on the last page. */
export function nextPage(response: PageSource): NextPage | undefined {
  const next = nextInHeader(response.headers.link) ?? nextInBody(response.body);
  if (next === undefined || typeof next !== 'string') return next;
  return response.url ? new URL(next, response.url).toString() : next;
}

function nextInHeader(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const [target = '', ...params] = part.split(';');
    const url = /<([^>]*)>/.exec(target)?.[1];
    const rel = params.map((param) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
    if (url !== undefined && rel?.toLowerCase().split(/\s+/).includes('next')) return url;
  }
  return undefined;
}

function nextInBody(body: unknown, depth = 0): NextPage | undefined {
  if (!isRecord(body) || depth > 3) return undefined;
  for (const [key, value] of Object.entries(body)) {
    const param = NEXT_KEYS[key.toLowerCase()];
    const next = param === undefined ? undefined : asNext(value, param);
    if (next !== undefined) return next;
  }
  for (const [key, value] of Object.entries(body)) {
    if (!CONTAINER_KEYS.has(key.toLowerCase())) continue;
    const next = Array.isArray(value) ? nextInLinkList(value) : nextInBody(value, depth + 1);
    if (next !== undefined) return next;
  }
  return undefined;
}

function asNext(value: unknown, param: string): NextPage | undefined {
  if (typeof value === 'number') return { param, value: String(value) };
  if (isRecord(value)) return typeof value.href === 'string' && value.href !== '' ? value.href : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  return looksLikeAddress(value) ? value : { param, value };
}

// links: [{ rel: "next", href: "..." }]
function nextInLinkList(links: unknown[]): string | undefined {
  const next = links.find((link) => isRecord(link) && String(link.rel).toLowerCase() === 'next');
  return isRecord(next) && typeof next.href === 'string' ? next.href : undefined;
}

function looksLikeAddress(value: string): boolean {
  return /^(https?:\/\/|\/|\?)/i.test(value);
}

export const MAX_PAGES = 50;

/** Yields `first` and every following page, fetched with `fetch(next)`; fails past `maxPages` or on a loop. */
export async function* pages<R extends PageSource>(
  first: R,
  fetch: (next: NextPage) => Promise<R>,
  maxPages = MAX_PAGES,
): AsyncGenerator<R> {
  const seen = new Set<string>();
  let page: R = first;
  for (let count = 1; ; count++) {
    yield page;
    const next = nextPage(page);
    if (next === undefined) return;
    // Stopping silently would let "not on any page" pass when it was only on a later page.
    if (count >= maxPages) throw new Error(`Pagination still offered a next page after ${maxPages} pages: ${JSON.stringify(next)}`);
    const key = JSON.stringify(next);
    if (seen.has(key)) throw new Error(`Pagination loops: the next page ${key} was already fetched`);
    seen.add(key);
    page = await fetch(next);
  }
}

/**
 * GETs `path` and the pages after it: all of them, or only until `until` holds for the bodies read
 * so far (a wanted record was found, and later pages cannot take it back; a check that something
 * is absent must read them all). One page: that response. Several: the last response with `body`
 * = the list of page bodies and every exchange, so the lookups above search all pages at once.
 * The first failing page is returned as it is.
 */
export async function readPages(
  api: ApiClient,
  path: string,
  options: RequestOptions = {},
  until: (bodies: unknown[]) => boolean = () => false,
  maxPages = MAX_PAGES,
): Promise<ApiResponse> {
  const fetch = (next: NextPage): Promise<ApiResponse> =>
    typeof next === 'string'
      ? api.request('GET', next, { ...options, query: undefined })
      : api.request('GET', path, { ...options, query: { ...options.query, [next.param]: next.value } });
  const read: ApiResponse[] = [];
  for await (const page of pages(await api.request('GET', path, options), fetch, maxPages)) {
    if (!page.ok) return page;
    read.push(page);
    if (until(read.map((each) => each.body))) break;
  }
  const last = read[read.length - 1] as ApiResponse;
  if (read.length === 1) return last;
  return {
    ...last,
    body: read.map((page) => page.body),
    text: read.map((page) => page.text).join('\n'),
    exchanges: read.flatMap((page) => page.exchanges),
  };
}

function walk(body: unknown, visit: (record: JsonRecord) => void): void {
  if (Array.isArray(body)) {
    for (const item of body) walk(item, visit);
  } else if (isRecord(body)) {
    visit(body);
    for (const value of Object.values(body)) walk(value, visit);
  }
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
