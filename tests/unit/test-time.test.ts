// A test's time is its own work: its turn behind other tests' requests at the client's pace is not charged; the
// target's refusals of its own requests are, and fail it "Target throttled"; its own slow work fails it "Out of time";
// vitest's timeout is only a backstop, which the run's bound beats with a category of its own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attributeToRule } from '../../support/evidence/failures.js';
import {
  countTestSpending,
  RunOutOfTimeError,
  spendTestTime,
  TestOutpacedError,
} from '../../support/evidence/test-time.js';
import { ApiClient } from '../../support/transport/http.js';
import { readPages } from '../../support/readings/list-reader.js';
import { Pace } from '../../support/transport/pace.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';
import { joinedPattern } from '../patterns.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// The pace, the client and the test's time all run on vitest's fake Date and setTimeout (systemClock reads them when
// called); the loopback server's answers come between the steps of `elapse`, which never sleeps for real.
describe('spendTestTime', () => {
  const serve = serversClosedAfterEach();
  let stop: (() => void) | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    stop = countTestSpending();
  });
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  async function elapse(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= 50) {
      await vi.advanceTimersByTimeAsync(50);
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function clientOf(status = 200, headers: Record<string, string> = {}) {
    const server = await serve((_request, response) => sendJson(response, status, {}, headers));
    // One request a second from the start: four requests asked together take four seconds to go.
    return new ApiClient({ baseUrl: server.url, pace: new Pace({ now: Date.now, sleep }, 1) });
  }

  it("charges a test nothing for its turn behind other tests' requests at the client's pace", async () => {
    const api = await clientOf();
    const busy = spendTestTime(60_000, 600_000, () => Promise.all([1, 2, 3, 4].map(() => api.request('GET', '/a'))));
    // Its 1.5 s of its own would not cover the 4 s its one request queues behind the other test's four.
    const queued = spendTestTime(1_500, 600_000, async () => {
      await api.request('GET', '/b');
      return 'ended';
    });
    await elapse(6_000);
    expect(await queued).toBe('ended');
    await busy;
  });

  it('charges a test nothing for a list read past its first page, and the same requests as its own', async () => {
    // Four pages, each answered a second after it is asked for.
    const server = await serve((request, response) => {
      const page = Number(new URL(request.url ?? '/', 'http://list').searchParams.get('page') ?? 1);
      const next = page < 4 ? `/list?page=${page + 1}` : null;
      setTimeout(() => sendJson(response, 200, { items: [{ page }], next }), 1_000);
    });
    const api = new ApiClient({ baseUrl: server.url });
    // 1.5 s of its own covers the first page, not all four.
    const listRead = spendTestTime(1_500, 600_000, async () => (await readPages(api, '/list')).paging.pages);
    const ownRequests = spendTestTime(1_500, 600_000, async () => {
      for (let page = 1; page <= 4; page++) await api.request('GET', '/list', { query: { page: `${page}` } });
    }).catch((error: unknown) => error);
    await elapse(5_000);
    expect(await listRead).toBe(4);
    expect(((await ownRequests) as Error).name).toBe('TestOutOfTimeError');
  });

  it('fails as Target throttled a test whose own requests the target went on refusing past its time', async () => {
    const api = await clientOf(429, { 'retry-after': '1' });
    const refused = spendTestTime(2_500, 600_000, () => api.request('GET', '/c')).catch((error: unknown) => error);
    await elapse(4_000);
    const error = await refused;
    expect(error).toBeInstanceOf(TestOutpacedError);
    expect((error as Error).message).toMatch(
      joinedPattern(
        /^Target throttled: the test's own 2\.5 s ran out while the target refused its requests: its \d request\(s\)/,
        /.*refused \(429, or 503 with Retry-After\) and waited .*No rule is judged by it/,
      ),
    );
    expect(attributeToRule(error, 'transition.delete')).toBe(error);
  });

  it('fails as Out of time a test whose own work outlasts its time, never as Target throttled', async () => {
    const api = await clientOf();
    const slow = spendTestTime(1_000, 600_000, async () => {
      await api.request('GET', '/d');
      await sleep(5_000);
    }).catch((error: unknown) => error);
    await elapse(2_000);
    const error = (await slow) as Error;
    expect(error.name).toBe('TestOutOfTimeError');
    expect(error.message).toMatch(
      /^Out of time: the test's own 1\.0 s ran out: its 1 request\(s\).*CONTRACT_TEST_TIMEOUT_MS/,
    );
    expect(attributeToRule(error, 'transition.delete')).toBe(error);
  });

  it("ends a test in a category before vitest's own timeout, the backstop, would end it in none", async () => {
    const waiting = spendTestTime(60_000, 4_000, () => sleep(10_000)).catch((error: unknown) => error);
    await elapse(2_000);
    const error = await waiting;
    expect(error).toBeInstanceOf(RunOutOfTimeError);
    expect((error as Error).message).toMatch(/^Run out of time: .*No rule is judged by it.*CONTRACT_PAGE_SIZE/);
    expect(attributeToRule(error, 'transition.delete')).toBe(error);
  });
});
