// Owns paging the lists (operations 6 and 7) in the five common conventions the simulator serves:
// a next URL in the body, a Link header with a cursor, page numbers (Spring style, no links),
// offset/limit with a total, and a `nextPageToken` sent back as `pageToken` (the vendor's pages).
// Which one a target uses is not documented.
import { badRequest } from './errors.js';
import type { PagingStyle, Reply } from './layouts/layout.js';

export type ListOrder = 'newest-first' | 'oldest-first';

const MAX_LIMIT = 1000;

/** A non-negative integer query parameter, or the fallback when it is absent. */
function whole(
  raw: string | undefined,
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw badRequest(name, `expected an integer ${min}..${max}, got ${JSON.stringify(raw)}`);
  return value;
}

// The cursor carries the sort key of the last item served, so records added while a client pages
// through a list neither repeat nor shift items between pages.
const encodeCursor = (key: number): string => Buffer.from(JSON.stringify({ after: key })).toString('base64url');

function decodeCursor(cursor: string, param: string): number {
  try {
    const { after } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof after === 'number') return after;
  } catch {
    // reported below, with the parameter name
  }
  throw badRequest(param, `not a cursor this service issued: ${JSON.stringify(cursor)}`);
}

export interface ListRequest {
  style: PagingStyle;
  order: ListOrder;
  /** The page size unless the client asks for another. */
  pageSize: number;
  query: Record<string, string | undefined>;
  /** The cursor parameter of the cursor styles. */
  cursorParam: string;
  /** The key of the records for the styles that do not name it. */
  listKey: string;
  /** The absolute URL of this request, for next links. */
  url: URL;
  /**
   * Every page states its `pageSize` beside its records, and the last one carries no continuation marker at all (no
   * `next: null`, no `nextCursor: null`): the absent marker is how the list ends.
   */
  statedPageSize?: boolean;
}

/**
 * One page of `items` (given oldest first, each with its sort key) in the request's style, its
 * records rendered by `render`.
 */
export function listPage<T>(
  items: T[],
  keyOf: (item: T) => number,
  render: (item: T) => unknown,
  request: ListRequest,
): Reply {
  const ordered = request.order === 'newest-first' ? [...items].reverse() : items;
  const { query, style } = request;
  const stated = (size: number) => (request.statedPageSize ? { pageSize: size } : {});
  if (style === 'page-number') {
    const size = whole(query.size, 'size', request.pageSize, 1, MAX_LIMIT);
    const number = whole(query.page, 'page', 0);
    const totalPages = Math.ceil(ordered.length / size);
    return {
      status: 200,
      body: {
        content: ordered.slice(number * size, (number + 1) * size).map(render),
        ...stated(size),
        page: { number, size, totalElements: ordered.length, totalPages },
      },
    };
  }
  if (style === 'offset') {
    const limit = whole(query.limit, 'limit', request.pageSize, 1, MAX_LIMIT);
    const offset = whole(query.offset, 'offset', 0);
    return {
      status: 200,
      body: {
        [request.listKey]: ordered.slice(offset, offset + limit).map(render),
        ...stated(limit),
        offset,
        limit,
        total: ordered.length,
      },
    };
  }
  // The page-token convention names its parameters itself: pageSize, and pageToken for the token.
  const [limitParam, cursorParam] = style === 'page-token' ? ['pageSize', 'pageToken'] : ['limit', request.cursorParam];
  const limit = whole(query[limitParam], limitParam, request.pageSize, 1, MAX_LIMIT);
  const cursor = query[cursorParam];
  const after = cursor === undefined ? undefined : decodeCursor(cursor, cursorParam);
  const remaining =
    after === undefined
      ? ordered
      : ordered.filter((item) => (request.order === 'newest-first' ? keyOf(item) < after : keyOf(item) > after));
  const page = remaining.slice(0, limit);
  const last = page.at(-1);
  // Strictly more: a last page that holds exactly `limit` records names no next page.
  const nextCursor = remaining.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : undefined;
  const records = page.map(render);
  const ends = request.statedPageSize === true && nextCursor === undefined;
  // The last page has no token at all, as the vendor's pages show it only where more follow.
  if (style === 'page-token')
    return {
      status: 200,
      body: {
        [request.listKey]: records,
        ...stated(limit),
        ...(nextCursor === undefined ? {} : { nextPageToken: nextCursor }),
      },
    };
  const nextUrl =
    nextCursor === undefined ? undefined : withQuery(request.url, { limit: String(limit), [cursorParam]: nextCursor });
  if (style === 'link-header') {
    return {
      status: 200,
      headers: nextUrl === undefined ? {} : { link: `<${nextUrl}>; rel="next"` },
      body: { [request.listKey]: records, ...stated(limit), meta: ends ? {} : { nextCursor: nextCursor ?? null } },
    };
  }
  return {
    status: 200,
    body: { [request.listKey]: records, ...stated(limit), ...(ends ? {} : { next: nextUrl ?? null }) },
  };
}

/**
 * A page that names its continuation by an opaque token under a marker no common convention uses (`@odata.nextLink`;
 * `nextPage` beside the vendor's `pageSize`) and states its limit: `first` fills the first page (its limit is their
 * number when fewer), the records after them follow from the token, sent back as `skipToken`, a page at a time.
 */
export function unknownMarkerPage<T>(
  first: T[],
  later: T[],
  render: (item: T) => unknown,
  request: ListRequest,
): Reply {
  const { query, style } = request;
  const [sizeKey, markerKey] = style === 'page-token' ? ['pageSize', 'nextPage'] : ['limit', '@odata.nextLink'];
  const asked = whole(query.pageSize ?? query.limit ?? query.size, sizeKey, request.pageSize, 1, MAX_LIMIT);
  const skip = whole(query.skipToken && Buffer.from(query.skipToken, 'base64url').toString(), 'skipToken', 0);
  const limit = skip === 0 ? Math.min(asked, first.length) : asked;
  const items = [...first, ...later];
  const next = skip + limit < items.length ? Buffer.from(String(skip + limit)).toString('base64url') : undefined;
  return {
    status: 200,
    body: {
      [request.listKey]: items.slice(skip, skip + limit).map(render),
      [sizeKey]: limit,
      ...(next === undefined ? {} : { [markerKey]: next }),
    },
  };
}

function withQuery(url: URL, params: Record<string, string>): string {
  const next = new URL(url);
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  return next.toString();
}
