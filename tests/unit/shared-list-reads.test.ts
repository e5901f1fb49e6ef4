import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS, type ContractConfig } from '../../support/run/config.js';
import { ApiClient } from '../../support/transport/http.js';
import { ConsumerData, listReadsOf, SharedListReads, wholeListDue } from '../../support/verbs/consumers.js';
import { NotSentError, testWork } from '../../support/transport/work.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';
import type { StoredPerson } from '../../support/verbs/persons.js';

const listen = serversClosedAfterEach();

const config = { availabilityTimeoutMs: 5_000, paths: DEFAULT_PATHS } as ContractConfig;

it('serves concurrent waits on one list with one read, read on until every record awaited is found', async () => {
  // Two pages; the second consumer is on the second page.
  const server = await listen((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2', state: 'IDENTIFIED' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1', state: 'IDENTIFIED' }], next: `${server.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  const reads = new SharedListReads(new ApiClient({ baseUrl: server.url }));
  const shows = (consumerId: string) => (bodies: unknown[]) => JSON.stringify(bodies).includes(`"${consumerId}"`);
  const before = Date.now() - 1;
  const [first, second] = await Promise.all([reads.read(DEFAULT_PATHS.consumers, {}, shows('c-1'), before), reads.read(DEFAULT_PATHS.consumers, {}, shows('c-2'), before)]);
  expect(second).toBe(first);
  expect(server.received.map((request) => request.url)).toEqual(['/consumer-intelligence/v3/consumers', '/consumer-intelligence/v3/consumers?pageToken=2']);
});

it('gives a wait that asks just after another\'s read that answer, when it shows the wait\'s record or was read to the end, and only if begun after the wait\'s last look', async () => {
  // Two pages: c-1 on the first, c-2 on the second.
  const server = await listen((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: `${server.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  // Fresh for a minute: what is checked here is which answers count, not how long one stays fresh.
  const reads = new SharedListReads(new ApiClient({ baseUrl: server.url }), 60_000);
  const path = DEFAULT_PATHS.consumers;
  const shows = (consumerId: string) => (bodies: unknown[]) => JSON.stringify(bodies).includes(`"${consumerId}"`);
  const before = Date.now() - 1;
  const firstPageOnly = await reads.read(path, {}, shows('c-1'), before);
  expect(server.received).toHaveLength(1);
  expect(await reads.read(path, {}, shows('c-1'), before), 'it shows the record').toBe(firstPageOnly);
  const whole = await reads.read(path, {}, shows('c-2'), before);
  expect(server.received, 'not read to the end, and it does not show c-2: read anew').toHaveLength(3);
  expect(await reads.read(path, {}, shows('c-9'), before), 'read to the end (c-2 was on the last page): it says c-9 is on no page').toBe(whole);
  await reads.read(path, {}, shows('c-1'), Date.now());
  expect(server.received, 'begun before the wait\'s last look: read anew').toHaveLength(4);
});

it('tells the waits on a list of every answer read from it, not of an answer handed on again, until they stop listening', async () => {
  const server = await listen((_request, response) => sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: null }));
  const reads = new SharedListReads(new ApiClient({ baseUrl: server.url }), 60_000);
  const path = DEFAULT_PATHS.consumers;
  const heard: unknown[] = [];
  const stop = reads.onRead(path, (answer) => heard.push(answer));
  const shows = (bodies: unknown[]) => JSON.stringify(bodies).includes('"c-1"');
  const first = await reads.read(path, {}, shows, Date.now() - 1);
  await reads.read(path, {}, shows, Date.now() - 1_000);
  expect(heard, 'the second read was the first answer again').toEqual([first]);
  stop();
  await reads.read(path, {}, shows, Date.now());
  expect([server.received.length, heard.length]).toEqual([2, 1]);
});

it('glances at the page where the run\'s records last appeared, and reads the whole list after two glances that missed, four once a wait found a new record', async () => {
  // Two pages: c-1 on the first; c-2 and c-3 on the second.
  const server = await listen((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2' }, { consumerId: 'c-3' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: `${server.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
  const pages = () => server.received.map((request) => (request.url.includes('pageToken=2') ? 2 : 1));
  await consumers.awaitConsumer('c-2', 'to be listed');
  expect(pages(), 'nothing found yet: two glances at the first page, then the whole list').toEqual([1, 1, 1, 2]);
  await consumers.awaitConsumer('c-3', 'to be listed');
  expect(pages().slice(4), 'the second page showed the last record found: a glance there').toEqual([2]);
});

/** A list of consumers served a page each, page tokens 1, 2, …; `pages` may grow between reads. The pages asked for, and when. */
async function pagedList(pages: string[][]) {
  const askedAt: number[] = [];
  const server = await listen((request, response) => {
    askedAt.push(Date.now());
    const page = Number(/pageToken=(\d+)/.exec(request.url)?.[1] ?? 1);
    const next = page < pages.length ? `${server.url}${DEFAULT_PATHS.consumers}?pageToken=${page + 1}` : null;
    sendJson(response, 200, { items: (pages[page - 1] ?? []).map((consumerId) => ({ consumerId })), next });
  });
  const api = new ApiClient({ baseUrl: server.url });
  return { api, server, askedAt, pagesAsked: () => server.received.map((request) => Number(/pageToken=(\d+)/.exec(request.url)?.[1] ?? 1)) };
}

describe('a glance at a list that showed a new record on its last page', () => {
  it('reads on from that page to the end, where records that filled it went', async () => {
    const pages = [['c-1'], ['c-2']];
    const { api, pagesAsked } = await pagedList(pages);
    const consumers = new ConsumerData(api, config);
    await consumers.awaitConsumer('c-2', 'to be listed');
    expect(pagesAsked(), 'nothing found yet: two glances at the first page, then the whole list').toEqual([1, 1, 1, 2]);
    pages.push(['c-3'], ['c-4']);
    await consumers.awaitConsumer('c-4', 'to be listed');
    expect(pagesAsked().slice(4), 'one glance, from the second page on, and no whole list').toEqual([2, 3, 4]);
    await consumers.awaitConsumer('c-4', 'to be listed');
    expect(pagesAsked().slice(7), 'the page it was found on, the list\'s last').toEqual([4]);
  });

  it('reads that page alone when it was not the list\'s last', async () => {
    const { api, pagesAsked } = await pagedList([['c-1'], ['c-2'], ['c-3']]);
    const consumers = new ConsumerData(api, config);
    await consumers.awaitConsumer('c-2', 'to be listed');
    expect(pagesAsked(), 'the whole list read up to c-2, on the second page of three').toEqual([1, 1, 1, 2]);
    await consumers.awaitConsumer('c-3', 'to be listed');
    expect(pagesAsked().slice(4), 'four glances at the second page, where c-2 was found, that missed, then the whole list').toEqual([2, 2, 2, 2, 1, 2, 3]);
  });

  it('starts from where an earlier run found new records, and keeps where this run found them', async () => {
    const { api, server, pagesAsked } = await pagedList([['c-1'], ['c-2'], ['c-3']]);
    const page = (token: number) => ({ url: `${server.url}${DEFAULT_PATHS.consumers}?pageToken=${token}` });
    listReadsOf(api).startFrom({ [DEFAULT_PATHS.consumers]: { at: page(2), end: true } });
    await new ConsumerData(api, config).awaitConsumer('c-3', 'to be listed');
    expect(pagesAsked()).toEqual([2, 3]);
    expect(listReadsOf(api).newRecordsPlaces()).toEqual({ [DEFAULT_PATHS.consumers]: { at: page(3), end: true } });
  });

  it('reads the whole list once half the wait\'s time has passed, however few glances missed', async () => {
    const { api, server, pagesAsked } = await pagedList([['c-1'], ['c-2'], ['c-3']]);
    listReadsOf(api).startFrom({ [DEFAULT_PATHS.consumers]: { at: { url: `${server.url}${DEFAULT_PATHS.consumers}?pageToken=2` }, end: false } });
    await new ConsumerData(api, { ...config, availabilityTimeoutMs: 200 }).awaitConsumer('c-1', 'to be listed');
    const firstWhole = pagesAsked().indexOf(1);
    expect(pagesAsked().slice(0, firstWhole), 'glances at the kept page, fewer than four').toEqual(Array.from({ length: firstWhole }, () => 2));
    expect(firstWhole).toBeGreaterThan(0);
    expect(firstWhole).toBeLessThan(4);
  });

  it('reads the whole list when a page an earlier run kept now shows nothing (the sandbox was reset since)', async () => {
    const { api, server, pagesAsked } = await pagedList([['c-1'], ['c-2']]);
    const page = (token: number) => ({ url: `${server.url}${DEFAULT_PATHS.consumers}?pageToken=${token}` });
    listReadsOf(api).startFrom({ [DEFAULT_PATHS.consumers]: { at: page(9), end: true } });
    await new ConsumerData(api, config).awaitConsumer('c-2', 'to be listed');
    expect(pagesAsked(), 'four glances at the kept page, empty and the last, then the whole list').toEqual([9, 9, 9, 9, 1, 2]);
    expect(listReadsOf(api).newRecordsPlaces()).toEqual({ [DEFAULT_PATHS.consumers]: { at: page(2), end: true } });
  });
});

it('forgets a page the target refuses to serve again, and reads the whole list instead', async () => {
  let tokenExpired = false;
  const server = await listen((request, response) => {
    if (request.url.includes('pageToken=2')) {
      if (tokenExpired) return sendJson(response, 400, { error: 'page token expired' });
      return sendJson(response, 200, { items: [{ consumerId: 'c-2' }], next: null });
    }
    return sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: `${server.url}/consumer-intelligence/v3/consumers?pageToken=2` });
  });
  const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
  await consumers.awaitConsumer('c-2', 'to be listed');
  tokenExpired = true;
  const error = await consumers.awaitConsumer('c-1', 'to be listed').then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeUndefined();
  expect(server.received.at(-1)?.url).toBe('/consumer-intelligence/v3/consumers');
});

it('learns where new records appear only from a record new to the list, not from a new version of one listed before', async () => {
  // Two pages of subscribed persons: g-new on the first; g-old, listed long before, on the second.
  const server = await listen((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ gedi: 'g-old', familyName: 'Berg' }], next: null })
      : sendJson(response, 200, { items: [{ gedi: 'g-new' }], next: `${server.url}/consumer-intelligence/v3/subscriptions/persons?pageToken=2` }),
  );
  const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
  const stored = (gedi: string) => ({ gedi, person: { legalId: `legal-${gedi}` } }) as StoredPerson;
  const pages = () => server.received.map((request) => (request.url.includes('pageToken=2') ? 2 : 1));
  await consumers.awaitSubscription(stored('g-old'), 'to show the family name Berg', (item) => JSON.stringify(item).includes('Berg'));
  expect(pages()).toEqual([1, 1, 1, 2]);
  await consumers.awaitSubscription(stored('g-new'));
  expect(pages().slice(4), 'still a glance at the first page').toEqual([1]);
});

describe('a read in flight that began before the wait\'s last look', () => {
  const path = DEFAULT_PATHS.consumers;
  const shows = (bodies: unknown[]) => JSON.stringify(bodies).includes('"c-1"');

  /** A read of a list in flight, and a last look of the wait after it began; the first two reads are answered when the test says, any later one at once. */
  async function olderReadInFlight() {
    const answers: (() => void)[] = [];
    const server = await listen((_request, response) => {
      const answer = () => sendJson(response, 200, { items: [{ consumerId: 'c-1', state: 'IDENTIFIED' }], next: null });
      if (answers.push(answer) > 2) answer();
    });
    const reads = new SharedListReads(new ApiClient({ baseUrl: server.url }));
    const older = reads.read(path, {}, shows, Date.now() - 1_000);
    await expect.poll(() => answers.length).toBe(1);
    const lookedAt = Date.now();
    await new Promise((after) => setTimeout(after, 5));
    return { answers, server, reads, older, lookedAt };
  }

  it('is never joined, and the newer read keeps serving the others', async () => {
    const { answers, server, reads, older, lookedAt } = await olderReadInFlight();
    const newer = reads.read(path, {}, shows, lookedAt);
    await expect.poll(() => answers.length, { message: 'begun before the last look: a read of its own' }).toBe(2);
    answers[0]!();
    await older;
    const joined = reads.read(path, {}, shows, lookedAt);
    answers[1]!();
    expect(await joined, 'the older read ending did not forget the newer one in flight').toBe(await newer);
    expect(server.received).toHaveLength(2);
  });

  it('is joined by a wait for what only the run\'s own write can show', async () => {
    const { answers, server, reads, older, lookedAt } = await olderReadInFlight();
    const awaited = reads.read(path, {}, shows, lookedAt, { anyRead: true });
    answers[0]!();
    expect(await awaited, 'the older read, joined').toBe(await older);
    expect(server.received).toHaveLength(1);
  });
});

it('looks up a consumer listed before on the page where the run\'s records appear, and reads up to its record when it is not there', async () => {
  // Two pages: c-1 on the first; c-2 on the second.
  const server = await listen((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2', state: 'NOT_IDENTIFIED' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1', state: 'IDENTIFIED' }], next: `${server.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
  const pages = () => server.received.map((request) => (request.url.includes('pageToken=2') ? 2 : 1));
  expect(await consumers.lookUpConsumer('c-2')).toEqual({ consumerId: 'c-2', state: 'NOT_IDENTIFIED' });
  expect(pages(), 'a glance at the first page, then the pages up to the record').toEqual([1, 1, 2]);
  expect(await consumers.lookUpConsumer('c-1')).toEqual({ consumerId: 'c-1', state: 'IDENTIFIED' });
  expect(pages().slice(3), 'the glance showed it').toEqual([1]);
  expect(await consumers.lookUpConsumer('c-9')).toBeUndefined();
});

it('fails a look-up the target refuses as that refusal, not as a consumer missing from the list', async () => {
  const server = await listen((_request, response) => sendJson(response, 403, { message: 'no permission for consumers' }));
  const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
  await expect(consumers.lookUpConsumer('c-1')).rejects.toThrow(/Not permitted: the consumer list .*answered 403/);
});

describe('a read that waits of several tests joined', () => {
  // Three pages, c-3 on the last; each page is answered when the test says.
  const answers: (() => void)[] = [];
  const answerNext = async (): Promise<void> => {
    await expect.poll(() => answers.length).toBeGreaterThan(0);
    answers.shift()!();
  };
  const path = DEFAULT_PATHS.consumers;
  const shows = (consumerId: string) => (bodies: unknown[]) => JSON.stringify(bodies).includes(`"${consumerId}"`);
  const inTest = (cancelled: AbortController, read: () => Promise<unknown>) => testWork(cancelled.signal, read).then((value) => value, (error: unknown) => error);

  /** The shared reads of a list of three pages, and which pages were asked for. */
  async function threePages(): Promise<{ reads: SharedListReads; pagesAsked: () => number[] }> {
    answers.length = 0;
    const server = await listen((request, response) => {
      const page = Number(/pageToken=(\d)/.exec(request.url)?.[1] ?? 1);
      const next = page < 3 ? `${server.url}${path}?pageToken=${page + 1}` : null;
      answers.push(() => sendJson(response, 200, { items: [{ consumerId: `c-${page}` }], next }));
    });
    return {
      reads: new SharedListReads(new ApiClient({ baseUrl: server.url })),
      pagesAsked: () => server.received.map((request) => Number(/pageToken=(\d)/.exec(request.url)?.[1] ?? 1)),
    };
  }

  it('goes on for the tests still waiting when the test that began it ends', async () => {
    const { reads, pagesAsked } = await threePages();
    const [first, second] = [new AbortController(), new AbortController()];
    const before = Date.now() - 1;
    const began = inTest(first, () => reads.read(path, {}, shows('c-9'), before));
    const joined = inTest(second, () => reads.read(path, {}, shows('c-2'), before));
    first.abort('timed out');
    for (let page = 1; page <= 2; page++) await answerNext();
    expect(await joined, 'read on for the second test, and no further for the first').toMatchObject({ paging: { pages: 2, complete: false } });
    expect(await began, 'one read for both').toBe(await joined);
    expect(pagesAsked()).toEqual([1, 2]);
  });

  it('sends no more pages once every test that joined it has ended, and is not joined then', async () => {
    const { reads, pagesAsked } = await threePages();
    const [first, second, later] = [new AbortController(), new AbortController(), new AbortController()];
    const before = Date.now() - 1;
    const ended = [inTest(first, () => reads.read(path, {}, shows('c-9'), before)), inTest(second, () => reads.read(path, {}, shows('c-3'), before))];
    first.abort('timed out');
    second.abort('timed out');
    const fresh = inTest(later, () => reads.read(path, {}, shows('c-1'), before));
    await answerNext();
    const [one, two] = await Promise.all(ended);
    expect(one).toBeInstanceOf(NotSentError);
    expect(two).toBe(one);
    expect((one as Error).message).toBe(`GET ${path} not sent: every test that joined it had ended`);
    expect(await fresh, 'a read of its own').toMatchObject({ paging: { pages: 1 } });
    expect(pagesAsked()).toEqual([1]);
  });

  it('sends nothing for a read that only a test already ended asked for', async () => {
    const { reads, pagesAsked } = await threePages();
    const ended = new AbortController();
    ended.abort('timed out');
    const read = await inTest(ended, () => reads.read(path, {}, shows('c-1'), Date.now() - 1));
    expect((read as Error).message).toBe(`GET ${path} not sent: every test that joined it had ended`);
    expect(pagesAsked()).toEqual([]);
  });
});

describe('a check that a record is absent from a list a watch will read whole', () => {
  const path = DEFAULT_PATHS.consumers;
  const stored = { gedi: 'g-9', person: { legalId: 'legal-9' } } as StoredPerson;

  /** A list of two pages, c-1 and c-2, answered at once. */
  const twoPages = () => pagedList([['c-1'], ['c-2']]);

  it('waits for the watch\'s read and takes it: one read of every page serves both', async () => {
    const { api, server, askedAt } = await twoPages();
    const consumers = new ConsumerData(api, config);
    const started = Date.now();
    const watched = consumers.watchForPerson('consumers', stored, 150);
    const checked = await consumers.listConsumers();
    expect(checked.paging).toMatchObject({ pages: 2, complete: true });
    expect((await watched).holds).toBe(false);
    expect(server.received, 'the two pages, once').toHaveLength(2);
    expect(askedAt[0]! - started, 'read at the end of the watch\'s window').toBeGreaterThanOrEqual(150);
  });

  it('reads alone, at once, when no watch has scheduled a read or the watch ended without it', async () => {
    const { api, server } = await twoPages();
    const reads = listReadsOf(api);
    const withdraw = reads.schedule(path, Date.now() + 60_000, 'a person that must not be listed');
    const checked = new ConsumerData(api, config).listConsumers();
    await new Promise((after) => setTimeout(after, 20));
    expect(server.received, 'waiting for the watch\'s read').toHaveLength(0);
    withdraw();
    expect((await checked).paging).toMatchObject({ pages: 2, complete: true });
    await new ConsumerData(api, config).listConsumers();
    expect(server.received).toHaveLength(4);
  });

  it('reads alone when the scheduled read has not begun a grace after it was due', async () => {
    const { api, server } = await twoPages();
    const reads = new SharedListReads(api, SharedListReads.FRESH_MS, 30);
    reads.schedule(path, Date.now() + 20, 'a person that must not be listed');
    const started = Date.now();
    await reads.untilScheduledReadBegins(path, reads.scheduledRead(path)!);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(server.received).toHaveLength(0);
  });

  it('reads alone, at once, once the watch\'s read has begun before it asked', async () => {
    const held: (() => void)[] = [];
    const server = await listen((_request, response) => held.push(() => sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: null })));
    const consumers = new ConsumerData(new ApiClient({ baseUrl: server.url }), config);
    const watched = consumers.watchForPerson('consumers', stored, 20);
    await expect.poll(() => held.length, { message: 'the watch\'s read, held' }).toBe(1);
    const checked = consumers.listConsumers();
    // Less than the grace a check gives a scheduled read that is late.
    await expect.poll(() => held.length, { message: 'a read of its own, not after the grace', timeout: SharedListReads.SCHEDULE_GRACE_MS / 2 }).toBe(2);
    for (const answer of held) answer();
    await Promise.all([watched, checked]);
  });

  it('takes any whole read begun after it asked, before the watch\'s', { timeout: 5_000 }, async () => {
    const { api, server } = await twoPages();
    const reads = listReadsOf(api);
    reads.schedule(path, Date.now() + 60_000, 'a person that must not be listed');
    const checked = new ConsumerData(api, config).listConsumers();
    await new Promise((after) => setTimeout(after, 5));
    const other = reads.read(path, {}, () => false, Date.now());
    expect(await checked).toBe(await other);
    expect(server.received).toHaveLength(2);
  });
});

it('watches a list with a read begun after the window\'s end, never one in flight before it', async () => {
  let answerFirst: (() => void) | undefined;
  const server = await listen((_request, response) => {
    const answer = () => sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: null });
    if (answerFirst === undefined) answerFirst = answer;
    else answer();
  });
  const api = new ApiClient({ baseUrl: server.url });
  const consumers = new ConsumerData(api, config);
  const watched = consumers.watchForPerson('consumers', { gedi: 'g-9', person: { legalId: 'legal-9' } } as StoredPerson, 50);
  await new Promise((after) => setTimeout(after, 5));
  const inFlight = listReadsOf(api).read(DEFAULT_PATHS.consumers, {}, () => false, Date.now());
  await expect.poll(() => answerFirst).toBeDefined();
  // Joined, the watch would wait for that read's answer, which comes only after the watch's.
  await expect.poll(() => server.received.length, { message: 'a read of its own at the window\'s end', timeout: 2_000 }).toBe(2);
  expect((await watched).holds).toBe(false);
  answerFirst!();
  await inFlight;
});

describe('when a glancing wait reads the whole list', () => {
  const wait = (missedGlances: number, placeKnown = false, wholePastHalfway = false) => ({ missedGlances, placeKnown, wholePastHalfway });
  const before = { final: false, pastHalfway: false };
  const past = { final: false, pastHalfway: true };

  it('after two glances that missed while the run does not know where new records appear, four once it does', () => {
    expect([0, 1, 2].map((missed) => wholeListDue(wait(missed), before))).toEqual([false, false, true]);
    expect([0, 1, 2, 3, 4].map((missed) => wholeListDue(wait(missed, true), before))).toEqual([false, false, false, false, true]);
  });

  it('at its deadline, whatever the glances showed', () => {
    expect(wholeListDue(wait(0, true), { final: true, pastHalfway: true })).toBe(true);
  });

  it('once past half its time when its last glance missed, and then again only as before', () => {
    expect(wholeListDue(wait(1, true), past), 'past half its time, a glance missed').toBe(true);
    expect(wholeListDue(wait(0, true), past), 'its last glance showed the record: it is where the wait looks').toBe(false);
    expect(wholeListDue(wait(1, true, true), past), 'it read the whole list since').toBe(false);
    expect(wholeListDue(wait(4, true, true), past), 'four glances missed since').toBe(true);
  });
});
