import { recordsOwning } from '../../support/readings/facts.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/transport/http.js';
import {
  containsValue,
  findValues,
  nextPage,
  pages,
  readPages,
  type NextPage,
  type PageSource,
} from '../../support/readings/lookup.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const person = { gedi: 'G-1', legalId: '198507099805', firstNames: ['Anna'], addressList: [{ city: 'Umeå' }] };

// The same person in layouts a service might plausibly choose.
const layouts: Record<string, unknown> = {
  flat: person,
  data: { data: person },
  items: { items: [person] },
  results: { results: [{ other: true }, person] },
  content: { content: [person], page: { number: 0 } },
  persons: { persons: [person] },
  hal: { _embedded: { persons: [person] } },
  'top-level array': [person],
  'deeply wrapped': { response: { payload: { data: [{ person }] } } },
};

describe('findValues / containsValue in any layout', () => {
  it.each(Object.entries(layouts))('finds the documented values in the %s layout', (_name, body) => {
    expect(findValues(body, 'gedi')).toEqual(['G-1']);
    expect(findValues(body, 'LEGALID')).toEqual(['198507099805']);
    expect(containsValue(body, '198507099805')).toBe(true);
    expect(containsValue(body, 'Umeå')).toBe(true);
  });

  it('compares strings exactly, never as substrings or across types', () => {
    expect(containsValue(layouts.items, '19850709')).toBe(false);
    expect(containsValue({ n: 198507099805 }, '198507099805')).toBe(false);
    expect(containsValue({ removed: true }, true)).toBe(true);
    expect(containsValue(undefined, 'x')).toBe(false);
  });

  it('returns every value under the key, outermost first', () => {
    expect(findValues({ gedi: 'outer', merged: { gedi: 'inner' } }, 'gedi')).toEqual(['outer', 'inner']);
  });
});

describe('nextPage', () => {
  const at = (body: unknown, headers: Record<string, string> = {}): PageSource => ({ body, headers });

  it.each([
    ['next URL', { items: [], next: 'https://api.example.com/consumers?page=2' }, 'https://api.example.com/consumers?page=2'],
    ['links.next', { links: { next: '/consumers?page=2' } }, '/consumers?page=2'],
    ['_links.next.href', { _links: { next: { href: '/consumers?page=2' } } }, '/consumers?page=2'],
    ['links list', { links: [{ rel: 'self', href: '/a' }, { rel: 'next', href: '/b' }] }, '/b'],
    ['pagination.next', { pagination: { next: '?page=3' } }, '?page=3'],
    ['nextCursor', { data: [], nextCursor: 'abc' }, { param: 'cursor', value: 'abc' }],
    ['cursor.next', { cursor: { next: 'abc' } }, { param: 'cursor', value: 'abc' }],
    ['nextPageToken', { nextPageToken: 't2' }, { param: 'pageToken', value: 't2' }],
    ['nextPage number', { content: [], nextPage: 2 }, { param: 'page', value: '2' }],
    ['meta.next', { meta: { next: 'xyz' } }, { param: 'cursor', value: 'xyz' }],
  ] as const)('finds the %s in the body', (_name, body, expected) => {
    expect(nextPage(at(body))).toEqual(expected);
  });

  it.each([
    ['a list without paging', { items: [{ id: 1 }] }],
    ['a null next', { items: [], next: null }],
    ['an empty cursor', { nextCursor: '' }],
    ['an item that has its own next', { items: [{ next: 'not-a-page' }] }],
    ['a top-level array', [{ next: '/x' }]],
  ])('finds none in %s', (_name, body) => {
    expect(nextPage(at(body))).toBeUndefined();
  });

  it('reads the Link header, with several relations and links', () => {
    const link = '<https://api.example.com/c?page=1>; rel="prev", <https://api.example.com/c?page=3>; rel="next last"';
    expect(nextPage(at({}, { link }))).toBe('https://api.example.com/c?page=3');
    expect(nextPage(at({}, { link: '<https://api.example.com/c?page=1>; rel=prev' }))).toBeUndefined();
  });

  it('resolves a relative next link against the response URL', () => {
    expect(nextPage({ body: { next: '/v3/consumers?page=2' }, headers: {}, url: 'https://api.example.com/v3/consumers' })).toBe(
      'https://api.example.com/v3/consumers?page=2',
    );
  });
});

async function drain<T>(source: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of source) all.push(item);
  return all;
}

describe('pages', () => {
  type Page = PageSource & { n: number };
  const page = (n: number, last = 3): Page => ({ n, headers: {}, body: { items: [n], ...(n < last ? { nextCursor: String(n + 1) } : {}) } });
  const fetchPage = async (next: NextPage): Promise<Page> => page(Number(typeof next === 'string' ? next : next.value));

  it('follows every page until there is no next one', async () => {
    const seen: number[] = [];
    for await (const current of pages(page(1), fetchPage)) seen.push(current.n);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('fails loudly past the page cap rather than pretend the list ended', async () => {
    const endless = async (next: NextPage): Promise<Page> => page(Number(typeof next === 'string' ? next : next.value), Infinity);
    await expect(drain(pages(page(1, Infinity), endless, 5))).rejects.toThrow(/after 5 pages/);
  });

  it('fails on a pagination loop', async () => {
    const loop = async (): Promise<Page> => ({ n: 0, headers: {}, body: { next: '/same' } });
    await expect(drain(pages({ n: 0, headers: {}, body: { next: '/same' } }, loop))).rejects.toThrow(/loops/);
  });
});

describe('readPages', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads every page and lets the lookups search them all', async () => {
    server = await startServer((request, response) => {
      const cursor = new URL(request.url, 'http://x').searchParams.get('cursor');
      if (cursor === null) sendJson(response, 200, { items: [{ consumerId: 'c-1' }], nextCursor: 'p2' });
      else if (cursor === 'p2') sendJson(response, 200, { items: [{ consumerId: 'c-2' }], links: { next: '/v3/consumers?cursor=p3&size=1' } });
      else sendJson(response, 200, { items: [{ consumerId: 'c-3' }] });
    });
    const all = await readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers', { query: { size: '1' } });
    expect(all.ok).toBe(true);
    expect(recordsOwning(all.body, 'c-3')[0]?.item).toEqual({ consumerId: 'c-3' });
    expect(all.exchanges).toHaveLength(3);
    expect(server.received.map((request) => request.url)).toEqual(['/v3/consumers?size=1', '/v3/consumers?size=1&cursor=p2', '/v3/consumers?cursor=p3&size=1']);
  });

  it('stops reading once the pages read so far hold what is wanted', async () => {
    server = await startServer((request, response) => {
      const cursor = new URL(request.url, 'http://x').searchParams.get('cursor');
      sendJson(response, 200, { items: [{ consumerId: `c-${cursor ?? '1'}` }], nextCursor: String(Number(cursor ?? '1') + 1) });
    });
    const found = await readPages(new ApiClient({ baseUrl: server.url }), '/v3/consumers', {}, (bodies) => recordsOwning(bodies, 'c-2').length > 0);
    expect(recordsOwning(found.body, 'c-2')[0]?.item).toEqual({ consumerId: 'c-2' });
    expect(server.received).toHaveLength(2);
  });

  it('returns a single page as it is, and a failing page instead of the list', async () => {
    server = await startServer((request, response) => {
      if (request.url.startsWith('/single')) sendJson(response, 200, { items: [{ consumerId: 'c-1' }] });
      else if (request.url.includes('cursor')) sendJson(response, 500, { error: 'boom' });
      else sendJson(response, 200, { items: [], nextCursor: 'x' });
    });
    const api = new ApiClient({ baseUrl: server.url });
    expect((await readPages(api, '/single')).body).toEqual({ items: [{ consumerId: 'c-1' }] });
    expect(await readPages(api, '/v3/consumers')).toMatchObject({ status: 500, body: { error: 'boom' } });
  });
});
