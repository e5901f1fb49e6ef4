// The list reader against every common paging convention, each served by a real local server with
// five records a page, and against lists it cannot read to their end.
import { describe, expect, it } from 'vitest';
import { recordsOwning } from '../../support/readings/facts.js';
import {
  ListIncompleteError,
  nextPage,
  onListRead,
  readCost,
  readPages,
  type ListReadCost,
} from '../../support/readings/list-reader.js';
import { ApiClient } from '../../support/transport/http.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';

const at = (body: unknown, headers: Record<string, string> = {}) => ({
  body,
  headers,
  url: 'https://api.example.com/v3/consumers',
});

describe('nextPage', () => {
  it.each([
    [
      'a next URL',
      { items: [], next: 'https://api.example.com/consumers?page=2' },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?page=2' } },
    ],
    [
      'links.next',
      { links: { next: '/consumers?page=2' } },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?page=2' } },
    ],
    [
      '_links.next.href',
      { _links: { next: { href: '/consumers?page=2' } } },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?page=2' } },
    ],
    [
      'a links list',
      {
        links: [
          { rel: 'self', href: '/a' },
          { rel: 'next', href: '/b' },
        ],
      },
      { convention: 'next link', next: { url: 'https://api.example.com/b' } },
    ],
    ['nextCursor', { data: [], nextCursor: 'abc' }, { convention: 'cursor', next: { query: { cursor: 'abc' } } }],
    [
      'meta.nextCursor',
      { data: [], meta: { nextCursor: 'abc' } },
      { convention: 'cursor', next: { query: { cursor: 'abc' } } },
    ],
    ['nextPageToken', { nextPageToken: 't2' }, { convention: 'cursor', next: { query: { pageToken: 't2' } } }],
    [
      'Spring page metadata (zero-based, no links)',
      { content: [1], page: { number: 0, size: 5, totalElements: 12, totalPages: 3 } },
      { convention: 'page number', next: { query: { page: '1', size: '5' } } },
    ],
    [
      'flat page metadata (one-based)',
      { items: [1], page: 1, pageSize: 5, totalPages: 3 },
      { convention: 'page number', next: { query: { page: '2', pageSize: '5' } } },
    ],
    [
      'hasNext without totals',
      { results: [1], pageNumber: 4, hasNext: true },
      { convention: 'page number', next: { query: { pageNumber: '5' } } },
    ],
    [
      'offset and limit with a total',
      { items: [1, 2, 3, 4, 5], offset: 0, limit: 5, total: 12 },
      { convention: 'offset', next: { query: { offset: '5', limit: '5' } } },
    ],
    [
      'offset with hasMore',
      { data: [1, 2], meta: { offset: 10, limit: 2, hasMore: true } },
      { convention: 'offset', next: { query: { offset: '12', limit: '2' } } },
    ],
    [
      'offset with hasMore and no limit',
      { items: [1, 2], offset: 4, hasMore: true },
      { convention: 'offset', next: { query: { offset: '6' } } },
    ],
    [
      'offset and limit without a total, the page full',
      { items: [1, 2, 3, 4, 5], offset: 0, limit: 5 },
      { convention: 'offset', next: { query: { offset: '5', limit: '5' } } },
    ],
    [
      'a page number and size without totals, the page full',
      { items: [1, 2, 3, 4, 5], page: 1, pageSize: 5 },
      { convention: 'page number', next: { query: { page: '2', pageSize: '5' } } },
    ],
    [
      'nextPage holding a URL',
      { items: [1], nextPage: 'https://api.example.com/consumers?page=2' },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?page=2' } },
    ],
    [
      'next_page_url (Laravel)',
      { data: [1], current_page: 1, per_page: 1, next_page_url: 'https://api.example.com/consumers?page=2' },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?page=2' } },
    ],
    [
      '@odata.nextLink',
      { value: [1], '@odata.nextLink': 'https://api.example.com/consumers?$skiptoken=2' },
      { convention: 'next link', next: { url: 'https://api.example.com/consumers?$skiptoken=2' } },
    ],
    [
      'a relative address without a leading slash',
      { items: [1], next: 'consumers?cursor=abc' },
      { convention: 'next link', next: { url: 'https://api.example.com/v3/consumers?cursor=abc' } },
    ],
  ] as const)('follows %s', (_name, body, expected) => {
    expect(nextPage(at(body))).toEqual(expected);
  });

  it.each([
    ['a list without paging', { items: [{ id: 1 }] }],
    ['a null next', { items: [], next: null }],
    ['an empty cursor', { nextCursor: '' }],
    ['an item that has its own next', { items: [{ next: 'not-a-page' }] }],
    ['the last Spring page', { content: [1], page: { number: 2, size: 5, totalElements: 12, totalPages: 3 } }],
    ['a last flag', { content: [1], number: 0, last: true }],
    ['the last offset page', { items: [1, 2], offset: 10, limit: 5, total: 12 }],
    ['hasMore false', { items: [1], offset: 0, limit: 5, hasMore: false }],
    ['an offset page shorter than its limit', { items: [1, 2, 3], offset: 20, limit: 10 }],
    ['a numbered page shorter than its size', { items: [1, 2], page: 3, size: 5 }],
    ['a page shorter than its limit', { items: [1, 2], limit: 5 }],
    ['a page as full as its limit whose next is null', { items: [1, 2], limit: 2, next: null }],
    ['a plain array', [{ id: 1 }, { id: 2 }]],
  ])('ends at %s', (_name, body) => {
    expect(nextPage(at(body))).toEqual({ convention: expect.any(String) as string });
  });

  it('reads the Link header, with several relations and links', () => {
    const link = '<https://api.example.com/c?page=1>; rel="prev", <https://api.example.com/c?page=3>; rel="next last"';
    expect(nextPage(at({}, { link }))).toEqual({
      convention: 'Link header',
      next: { url: 'https://api.example.com/c?page=3' },
    });
    expect(nextPage(at({}, { link: '<https://api.example.com/c?page=1>; rel=prev' })).next).toBeUndefined();
  });

  it.each([
    ['hasMore', { items: [1], hasMore: true }, 'the answer says more records follow (hasMore)'],
    ['a page number in nextPage', { items: [1], nextPage: 2 }, 'nextPage = 2 marks a next page'],
    ['a token under an unknown key', { items: [1], next_page: 'abc' }, 'next_page = "abc" marks a next page'],
    ['a page full to its limit', { items: [1, 2], limit: 2 }, 'holds 2 record(s), as many as its limit = 2'],
    ['a page full to its page size', { data: [1], meta: { pageSize: 1 } }, 'as many as its pageSize = 1'],
  ])('says when %s says more records follow but no way to ask for them is given', (_name, body, seen) => {
    const { next, unreachable } = nextPage(at(body));
    expect(next).toBeUndefined();
    expect(unreachable).toContain(seen);
  });
});

describe('readPages', () => {
  const listen = serversClosedAfterEach();

  const RECORDS = Array.from({ length: 12 }, (_, index) => ({ consumerId: `c-${index + 1}` }));
  const slice = (from: number) => RECORDS.slice(from, from + 5);

  const conventions: [
    string,
    (query: URLSearchParams, base: string) => { body: unknown; headers?: Record<string, string> },
  ][] = [
    [
      'Spring page metadata, no links',
      (query) => {
        const number = Number(query.get('page') ?? 0);
        return { body: { content: slice(number * 5), page: { number, size: 5, totalElements: 12, totalPages: 3 } } };
      },
    ],
    [
      'one-based pages',
      (query) => {
        const page = Number(query.get('page') ?? 1);
        return { body: { items: slice((page - 1) * 5), page, totalPages: 3 } };
      },
    ],
    [
      'offset and total',
      (query) => {
        const offset = Number(query.get('offset') ?? 0);
        return { body: { items: slice(offset), offset, limit: 5, total: 12 } };
      },
    ],
    [
      'offset and hasMore',
      (query) => {
        const offset = Number(query.get('offset') ?? 0);
        return { body: { data: slice(offset), paging: { offset, limit: 5, hasMore: offset + 5 < 12 } } };
      },
    ],
    [
      'a Link header',
      (query, base) => {
        const from = Number(query.get('from') ?? 0);
        const headers: Record<string, string> =
          from + 5 < 12 ? { link: `<${base}/v3/consumers?from=${from + 5}>; rel="next"` } : {};
        return { body: slice(from), headers };
      },
    ],
    [
      'a cursor',
      (query) => {
        const from = Number(query.get('cursor') ?? 0);
        return { body: { data: slice(from), nextCursor: from + 5 < 12 ? String(from + 5) : null } };
      },
    ],
    [
      'offset and limit without a total',
      (query) => {
        const offset = Number(query.get('offset') ?? 0);
        return { body: { items: slice(offset), offset, limit: 5 } };
      },
    ],
    [
      'page number and size without totals',
      (query) => {
        const page = Number(query.get('page') ?? 1);
        return { body: { items: slice((page - 1) * 5), page, pageSize: 5 } };
      },
    ],
    [
      '@odata.nextLink',
      (query, base) => {
        const from = Number(query.get('$skiptoken') ?? 0);
        const next = from + 5 < 12 ? `${base}/v3/consumers?$skiptoken=${from + 5}` : undefined;
        return { body: { value: slice(from), ...(next && { '@odata.nextLink': next }) } };
      },
    ],
    [
      'a relative nextPage and a total',
      (query) => {
        const from = Number(query.get('from') ?? 0);
        return {
          body: { items: slice(from), total: 12, nextPage: from + 5 < 12 ? `consumers?from=${from + 5}` : null },
        };
      },
    ],
    [
      'a Link header and X-Total-Count',
      (query, base) => {
        const from = Number(query.get('_start') ?? 0);
        const headers: Record<string, string> = { 'x-total-count': '12' };
        if (from + 5 < 12) headers.link = `<${base}/v3/consumers?_start=${from + 5}>; rel="next"`;
        return { body: slice(from), headers };
      },
    ],
  ];

  it.each(conventions)('reads every record of a list paged by %s', async (_name, serve) => {
    const server = await listen((request, response) => {
      const { body, headers } = serve(new URL(request.url, 'http://x').searchParams, server.url);
      sendJson(response, 200, body, headers);
    });
    const all = await readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers');
    expect(all.paging.pages).toBe(3);
    for (const record of RECORDS) expect(recordsOwning(all.body, record.consumerId), record.consumerId).toHaveLength(1);
    expect(all.exchanges).toHaveLength(3);
  });

  it('stops reading once the pages read so far hold what is wanted', async () => {
    const server = await listen((request, response) => {
      const cursor = new URL(request.url, 'http://x').searchParams.get('cursor');
      sendJson(response, 200, {
        items: [{ consumerId: `c-${cursor ?? '1'}` }],
        nextCursor: String(Number(cursor ?? '1') + 1),
      });
    });
    const found = await readPages(
      new ApiClient({ baseUrl: server.url }),
      '/v3/consumers',
      {},
      (bodies) => recordsOwning(bodies, 'c-2').length > 0,
    );
    expect(recordsOwning(found.body, 'c-2')[0]?.item).toEqual({ consumerId: 'c-2' });
    expect(server.received).toHaveLength(2);
  });

  it.each(conventions)(
    'stops on the page that holds what it waits for, when the list is paged by %s',
    async (_name, serve) => {
      const server = await listen((request, response) => {
        const { body, headers } = serve(new URL(request.url, 'http://x').searchParams, server.url);
        sendJson(response, 200, body, headers);
      });
      const api = new ApiClient({ baseUrl: server.url });
      const stopped = await readPages(api, '/v3/consumers', {}, (bodies) => recordsOwning(bodies, 'c-7').length > 0);
      expect(stopped.paging).toMatchObject({ pages: 2, complete: false });
      expect(server.received).toHaveLength(2);
    },
  );

  it('calls a first page complete only when it is the only one', async () => {
    const server = await listen((request, response) =>
      request.url.includes('short')
        ? sendJson(response, 200, { items: [1], next: null })
        : sendJson(response, 200, { items: [1], next: '/v3/consumers?page=2' }),
    );
    const api = new ApiClient({ baseUrl: server.url });
    expect((await readPages(api, '/v3/short', {}, () => true)).paging).toMatchObject({ complete: true });
    expect((await readPages(api, '/v3/consumers', {}, () => true)).paging.complete).toBe(false);
  });

  it('returns a single page as it is, and a failing page instead of the list', async () => {
    const server = await listen((request, response) => {
      if (request.url.includes('cursor=2')) sendJson(response, 503, { error: 'down' });
      else sendJson(response, 200, { items: [1], nextCursor: '2' });
    });
    const answer = await readPages(
      new ApiClient({
        baseUrl: server.url,
        policy: {
          maxAttempts: 1,
          baseDelayMs: 0,
          maxDelayMs: 0,
          maxTotalMs: 0,
          jitter: 0,
          retryStatuses: [],
          unprocessedStatuses: [],
          idempotentMethods: [],
        },
      }),
      '/v3/consumers',
    );
    expect(answer.status).toBe(503);
    expect(answer.exchanges.map(({ status }) => status)).toEqual([200, 503]);
  });

  it.each([
    ['a plain array', [{ consumerId: 'c-1' }, { consumerId: 'c-2' }]],
    ['one list and no paging fields', { items: [{ consumerId: 'c-1' }] }],
    ['an offset page shorter than its limit', { items: [{ consumerId: 'c-1' }], offset: 0, limit: 10 }],
  ])('reads %s as a whole list of one page', async (_name, body) => {
    const server = await listen((_request, response) => sendJson(response, 200, body));
    const read = await readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers');
    expect(read.paging).toMatchObject({ pages: 1, complete: true, requests: 1 });
    expect(server.received).toHaveLength(1);
  });

  it.each([
    ['more records with no way to ask for them', () => ({ items: [1], hasMore: true }), /no way to ask/],
    [
      'a total larger than what the pages hold',
      () => ({ items: [], offset: 5, limit: 5, total: 12 }),
      /total says 12 records/,
    ],
    ['a next page that is the same page again', () => ({ items: [1], next: '/v3/consumers?same=1' }), /already read/],
    ['a next page it cannot ask for', () => ({ items: [1], nextPage: 2 }), /nextPage = 2 marks a next page/],
    ['a page full to its limit', () => ({ items: [1, 2], limit: 2 }), /as many as its limit = 2/],
    [
      'a total beyond the records read',
      () => ({ items: [1, 2], total: 12, next: null }),
      /total = 12, but the 1 page\(s\) read held 2 record\(s\)/,
    ],
    ['an @odata.count beyond the records read', () => ({ value: [1, 2], '@odata.count': 7 }), /@odata.count = 7/],
    [
      'more pages than were read',
      () => ({ items: [1, 2], totalPages: 3 }),
      /totalPages = 3, but 1 page\(s\) were read/,
    ],
  ])('fails as "list could not be read completely" on %s, naming the convention', async (_name, body, reason) => {
    const server = await listen((_request, response) => sendJson(response, 200, body()));
    const error = await readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ListIncompleteError);
    expect((error as Error).message).toMatch(/^List could not be read completely: \/v3\/consumers \(/);
    expect((error as Error).message).toMatch(reason);
  });

  it('fails on an X-Total-Count beyond the records of a plain array, naming the pages and requests read', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, [1, 2], { 'x-total-count': '12' }));
    await expect(readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers')).rejects.toThrow(
      'List could not be read completely: /v3/consumers (single page paging) after 1 page(s) and 1 request(s): ' +
        'x-total-count = 12, but the 1 page(s) read held 2 record(s) (GET /v3/consumers → 200)',
    );
  });

  it('never follows a next page on another host, where the token would go', async () => {
    const server = await listen((_request, response) =>
      sendJson(response, 200, { items: [1, 2], next: 'https://elsewhere.example/v3/consumers?page=2' }),
    );
    await expect(readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers')).rejects.toThrow(
      'after 1 page(s) and 1 request(s): the next page is on another host, https://elsewhere.example, not followed',
    );
  });

  it('fails on a total beyond the records of every page read, after following the pages', async () => {
    const server = await listen((request, response) =>
      request.url.includes('cursor=2')
        ? sendJson(response, 200, { items: [3], total: 5, nextCursor: null })
        : sendJson(response, 200, { items: [1, 2], total: 5, nextCursor: '2' }),
    );
    await expect(readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers')).rejects.toThrow(
      /after 2 page\(s\) and 2 request\(s\): total = 5, but the 2 page\(s\) read held 3 record\(s\)/,
    );
  });

  it('counts what every read cost, retries included, and tells its listeners its operation and purpose', async () => {
    let refusals = 1;
    const server = await listen((request, response) => {
      const cursor = Number(new URL(request.url, 'http://x').searchParams.get('cursor') ?? 0);
      if (cursor === 1 && refusals-- > 0) return sendJson(response, 429, {}, { 'retry-after': '0' });
      sendJson(response, 200, {
        items: RECORDS.slice(cursor * 5, cursor * 5 + 5),
        nextCursor: cursor < 2 ? `${cursor + 1}` : null,
      });
    });
    const costs: ListReadCost[] = [];
    const stop = onListRead((cost) => costs.push(cost));
    try {
      const api = new ApiClient({ baseUrl: server.url });
      const options = { operation: 'op6', purpose: 'list consumers' };
      const whole = await readPages(api, '/v3/consumers', options);
      expect(whole.paging).toMatchObject({ pages: 3, requests: 4, records: 12, fullestPage: 5, complete: true });
      expect(readCost(whole.paging)).toBe('3 pages, 4 requests');
      await readPages(api, '/v3/consumers', options, (bodies) => recordsOwning(bodies, 'c-1').length > 0);
    } finally {
      stop();
    }
    expect(costs).toEqual([
      expect.objectContaining({ operation: 'op6', purpose: 'list consumers', pages: 3, requests: 4, complete: true }),
      expect.objectContaining({ pages: 1, requests: 1, records: 5, complete: false }),
    ]);
  });

  it('fails past the page cap rather than pretend the list ended', async () => {
    const server = await listen((request, response) => {
      const cursor = Number(new URL(request.url, 'http://x').searchParams.get('cursor') ?? 0);
      sendJson(response, 200, { items: [cursor], nextCursor: String(cursor + 1) });
    });
    await expect(
      readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers', {}, undefined, { maxPages: 5 }),
    ).rejects.toThrow(/after 5 pages/);
  });
});
