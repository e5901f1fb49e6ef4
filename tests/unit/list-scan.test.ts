// The run's scan of a list against a real local server whose pages are answered one at a time, so that each wait
// joins the scan at a known page: what each wait counts, when the scan stops, and what a failing page fails.
import { describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { recordsOwning } from '../../support/readings/facts.js';
import { ListScan, type ScanNeed } from '../../support/readings/list-scan.js';
import { ApiClient, NotSentError, type ClientOptions, type Work } from '../../support/transport/http.js';
import { Pace } from '../../support/transport/pace.js';
import { EventClock } from './paced-clients.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';

const listen = serversClosedAfterEach();

/** Records c-1 … c-12, five a page by cursor (pages 1–3); each request is answered when the test says. */
async function heldList(client: Omit<ClientOptions, 'baseUrl'> = {}) {
  const records = Array.from({ length: 12 }, (_, index) => ({ consumerId: `c-${index + 1}` }));
  const held: { cursor: number; response: ServerResponse }[] = [];
  let arrived = Promise.withResolvers<void>();
  const server = await listen((request, response) => {
    held.push({ cursor: Number(new URL(request.url, 'http://list').searchParams.get('cursor') ?? 0), response });
    arrived.resolve();
  });
  /** The held request, once it has come. */
  const next = async () => {
    while (held.length === 0) {
      arrived = Promise.withResolvers<void>();
      await arrived.promise;
    }
    return held.shift()!;
  };
  return {
    server,
    scan: new ListScan(new ApiClient({ ...client, baseUrl: server.url }), '/v3/consumers', {}),
    /** Answers the next request with its page, and says which page it was. */
    async answer(status = 200): Promise<number> {
      const { cursor, response } = await next();
      const more = cursor + 5 < records.length ? { nextCursor: String(cursor + 5) } : {};
      sendJson(response, status, status === 200 ? { items: records.slice(cursor, cursor + 5), ...more } : {});
      return cursor / 5 + 1;
    },
    /** Waits until the next request has come, unanswered. */
    async asked(): Promise<number> {
      const request = await next();
      held.unshift(request);
      return request.cursor / 5 + 1;
    },
  };
}

/** A look for c-12 on page 3, and `need` begun once page 1 was answered and page 2 asked for, not yet answered. */
async function joinedWhilePage2Asked(list: Awaited<ReturnType<typeof heldList>>, need: ScanNeed) {
  const early = list.scan.read(lookFor('c-12'));
  expect(await list.answer()).toBe(1);
  expect(await list.asked(), 'page 2 asked, not answered').toBe(2);
  return { early, late: list.scan.read(need) };
}

const lookFor = (id: string): ScanNeed => ({ kind: 'look', found: (page) => recordsOwning(page, id).length > 0 });
const idsOn = (pages: unknown[]): string[] =>
  pages.flatMap((page) => (page as { items: { consumerId: string }[] }).items.map(({ consumerId }) => consumerId));

describe('ListScan', () => {
  it('serves two looks with one read, each answered with the page that held its record', async () => {
    const list = await heldList();
    const first = list.scan.read(lookFor('c-12'));
    const second = list.scan.read(lookFor('c-7'));
    expect([await list.answer(), await list.answer(), await list.answer()]).toEqual([1, 2, 3]);
    const [onThird, onSecond] = await Promise.all([first, second]);
    expect(idsOn(onSecond.pages)).toContain('c-7');
    expect(onSecond.paging).toMatchObject({ pages: 1, complete: false });
    expect(idsOn(onThird.pages)).toContain('c-12');
    expect(list.server.received, 'one request a page').toHaveLength(3);
  });

  it('stops once no look needs another page, and reads from the first page for the next look', async () => {
    const list = await heldList();
    const found = list.scan.read(lookFor('c-2'));
    expect(await list.answer()).toBe(1);
    expect((await found).paging.pages).toBe(1);
    const later = list.scan.read(lookFor('c-3'));
    expect(await list.answer(), 'not where the last read stopped: pages shift under new records').toBe(1);
    await later;
    expect(list.server.received).toHaveLength(2);
  });

  it('counts only pages asked after a look began: one that joined late reads round to where it joined', async () => {
    const list = await heldList();
    const { early, late } = await joinedWhilePage2Asked(list, lookFor('c-1'));
    expect([await list.answer(), await list.answer()]).toEqual([2, 3]);
    await early;
    expect(await list.answer(), 'the next read, for the late look').toBe(1);
    const read = await late;
    expect(idsOn(read.pages)).toContain('c-1');
    expect(list.server.received).toHaveLength(4);
  });

  it('counts a page that waited for its turn at the pace and left after a look began', async () => {
    const clock = new EventClock();
    const pace = new Pace(clock, 1); // one a second: page 2 waits a second for its turn
    const asked = vi.spyOn(pace, 'acquire');
    const list = await heldList({ clock, pace });
    const early = list.scan.read(lookFor('c-12'));
    expect(await list.answer()).toBe(1);
    await vi.waitFor(() => expect(asked, 'page 2 asked, waiting for its turn').toHaveBeenCalledTimes(2));
    const late = list.scan.read(lookFor('c-7'));
    await clock.runUntil(1_000);
    expect(await list.answer()).toBe(2);
    const read = await late;
    expect(idsOn(read.pages), 'page 2, which left after the look began').toContain('c-7');
    await clock.runUntil(2_000);
    expect(await list.answer()).toBe(3);
    await early;
    expect(list.server.received, 'no page read again for the late look').toHaveLength(3);
  });

  it('says "no such record" to a late look only after it read the whole list round, from where it joined', async () => {
    const list = await heldList();
    const { early, late } = await joinedWhilePage2Asked(list, lookFor('c-99'));
    expect([await list.answer(), await list.answer(), await list.answer(), await list.answer()]).toEqual([2, 3, 1, 2]);
    await early;
    const read = await late;
    expect(read.paging, 'pages 3, 1 and 2: all of the list, each asked after it joined').toMatchObject({
      pages: 3,
      complete: true,
    });
    expect(list.server.received).toHaveLength(5);
  });

  it('gives an absence a whole read begun after it asked, not the rest of one under way', async () => {
    const list = await heldList();
    const { early: look, late: absence } = await joinedWhilePage2Asked(list, { kind: 'whole' });
    expect([await list.answer(), await list.answer()]).toEqual([2, 3]);
    await look;
    expect([await list.answer(), await list.answer(), await list.answer()]).toEqual([1, 2, 3]);
    const whole = await absence;
    expect(whole.paging).toMatchObject({ pages: 3, complete: true, requests: 3 });
    expect(idsOn(whole.pages)).toHaveLength(12);
  });

  it('shares a whole read that has not yet asked for a page with the looks that began with it', async () => {
    const list = await heldList();
    const absence = list.scan.read({ kind: 'whole' });
    const look = list.scan.read(lookFor('c-12'));
    expect([await list.answer(), await list.answer(), await list.answer()]).toEqual([1, 2, 3]);
    expect((await absence).paging.complete).toBe(true);
    expect((await look).paging.pages).toBe(1);
    expect(list.server.received).toHaveLength(3);
  });

  it('answers a refused page to the waits that still needed it, and only to them', async () => {
    const list = await heldList();
    const onFirst = list.scan.read(lookFor('c-1'));
    expect(await list.asked()).toBe(1);
    const onThird = list.scan.read(lookFor('c-12'));
    const absence = list.scan.read({ kind: 'whole' });
    expect(await list.answer()).toBe(1);
    expect((await onFirst).ok).toBe(true);
    expect(await list.answer(403)).toBe(2);
    const refused = await onThird;
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(
      refused.paging,
      'the refused page alone, named as the second: page 1 was asked before it began',
    ).toMatchObject({ pages: 1, requests: 1 });
    expect([await list.answer(), await list.answer(), await list.answer()], 'a read begun after').toEqual([1, 2, 3]);
    expect((await absence).paging).toMatchObject({ pages: 3, complete: true });
  });

  it('needs nothing more for a test that has ended, and stops when nobody else waits', async () => {
    const list = await heldList();
    const test: { ended?: string } = {};
    const work = { ended: () => test.ended } as Work;
    const look = expect(list.scan.read({ ...lookFor('c-12'), work })).rejects.toBeInstanceOf(NotSentError);
    expect(await list.asked()).toBe(1);
    test.ended = 'the test failed';
    expect(await list.answer()).toBe(1);
    await look;
    expect(list.server.received).toHaveLength(1);
  });
});
