import { badRequest } from './errors.js';

export type ListOrder = 'newest-first' | 'oldest-first';

export interface Page<T> {
  items: T[];
  /** Present when more items follow. */
  nextCursor?: string;
}

const MAX_LIMIT = 1000;

/** The page size a client asked for (`limit`), within 1..1000. */
export function pageLimit(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badRequest('limit', `expected an integer 1..${MAX_LIMIT}, got ${JSON.stringify(raw)}`);
  return limit;
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

/** One page of `items` (given oldest first) in the layout's order, after the cursor's item. */
export function paginate<T>(items: T[], keyOf: (item: T) => number, order: ListOrder, limit: number, cursor: { param: string; value?: string }): Page<T> {
  const after = cursor.value === undefined ? undefined : decodeCursor(cursor.value, cursor.param);
  const ordered = order === 'newest-first' ? [...items].reverse() : items;
  const remaining = after === undefined ? ordered : ordered.filter((item) => (order === 'newest-first' ? keyOf(item) < after : keyOf(item) > after));
  const page = remaining.slice(0, limit);
  const last = page.at(-1);
  return remaining.length > limit && last !== undefined ? { items: page, nextCursor: encodeCursor(keyOf(last)) } : { items: page };
}
