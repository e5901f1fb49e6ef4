// A test's time is its own work: its turn behind other tests' requests at the client's pace is not charged; the
// target's refusals of its own requests are, and fail it "Target throttled"; its own slow work fails it "Out of time";
// vitest's timeout is only a backstop, which the run's bound beats with a category of its own. Once a test has ended,
// its requests are not sent; the run's own work (its cleanup) goes on.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attributeToRule } from '../../support/evidence/failures.js';
import { RunOutOfTimeError, RunTime, TestOutpacedError, TestWork } from '../../support/evidence/test-time.js';
import { ApiClient, NotSentError } from '../../support/transport/http.js';
import { readPages } from '../../support/readings/list-reader.js';
import { Pace } from '../../support/transport/pace.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';
import { joinedPattern } from '../patterns.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// The pace, the client and the test's time all run on vitest's fake Date and setTimeout (systemClock reads them when
// called); the loopback server's answers come between the steps of `elapse`, which never sleeps for real.
/** A category failure as attributeToRule answers it: the failure's name and words kept, its category a field. */
const verdict = (error: unknown, category: string) => ({
  name: (error as Error).name,
  message: (error as Error).message,
  category,
  cause: error,
});

describe("the time of a test's work", () => {
  const serve = serversClosedAfterEach();
  let stop: (() => void) | undefined;
  let runTime: RunTime;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    runTime = new RunTime();
    stop = runTime.countExchanges();
  });
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  /** Runs `body` as a test with `ownTimeMs` of its own, sending `api`'s requests for it. */
  function asTest<T>(ownTimeMs: number, backstopMs: number, api: ApiClient, body: (api: ApiClient) => Promise<T>) {
    const work = new TestWork('a test', new AbortController().signal, runTime, { ownTimeMs, backstopMs });
    return work.run(() => body(api.forWork(work)));
  }

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
    const busy = asTest(60_000, 600_000, api, (own) => Promise.all([1, 2, 3, 4].map(() => own.request('GET', '/a'))));
    // Its 1.5 s of its own would not cover the 4 s its one request queues behind the other test's four.
    const queued = asTest(1_500, 600_000, api, async (own) => {
      await own.request('GET', '/b');
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
    const listRead = asTest(1_500, 600_000, api, async (own) => (await readPages(own, '/list')).paging.pages);
    const ownRequests = asTest(1_500, 600_000, api, async (own) => {
      for (let page = 1; page <= 4; page++) await own.request('GET', '/list', { query: { page: `${page}` } });
    }).catch((error: unknown) => error);
    // One in flight until a rate is set: the eight requests go one after another.
    await elapse(9_000);
    expect(await listRead).toBe(4);
    expect(((await ownRequests) as Error).name).toBe('TestOutOfTimeError');
  });

  it('fails as Target throttled a test whose own requests the target went on refusing past its time', async () => {
    const api = await clientOf(429, { 'retry-after': '1' });
    const refused = asTest(2_500, 600_000, api, (own) => own.request('GET', '/c')).catch((error: unknown) => error);
    await elapse(4_000);
    const error = await refused;
    expect(error).toBeInstanceOf(TestOutpacedError);
    expect((error as Error).message).toMatch(
      joinedPattern(
        /^Target throttled: the test's own 2\.5 s ran out while the target refused its requests: its \d request\(s\)/,
        /.*refused \(429, or 503 with Retry-After\) and waited .*No rule is judged by it/,
      ),
    );
    expect(attributeToRule(error, 'transition.delete')).toMatchObject(verdict(error, 'Target throttled'));
  });

  it('fails as Out of time a test whose own work outlasts its time, never as Target throttled', async () => {
    const api = await clientOf();
    const slow = asTest(1_000, 600_000, api, async (own) => {
      await own.request('GET', '/d');
      await sleep(5_000);
    }).catch((error: unknown) => error);
    await elapse(2_000);
    const error = (await slow) as Error;
    expect(error.name).toBe('TestOutOfTimeError');
    expect(error.message).toMatch(
      /^Out of time: the test's own 1\.0 s ran out: its 1 request\(s\).*CONTRACT_TEST_TIMEOUT_MS/,
    );
    expect(attributeToRule(error, 'transition.delete')).toMatchObject(verdict(error, 'Out of time'));
  });

  it("ends a test in a category before vitest's own timeout, the backstop, would end it in none", async () => {
    const api = await clientOf();
    const waiting = asTest(60_000, 4_000, api, () => sleep(10_000)).catch((error: unknown) => error);
    await elapse(2_000);
    const error = await waiting;
    expect(error).toBeInstanceOf(RunOutOfTimeError);
    expect((error as Error).message).toMatch(/^Run out of time: .*No rule is judged by it.*CONTRACT_PAGE_SIZE/);
    expect(attributeToRule(error, 'transition.delete')).toMatchObject(verdict(error, 'Out of time'));
  });
});

describe("the end of a test's work", () => {
  const listen = serversClosedAfterEach();

  /** What a promise settled with: its value, or what it threw. */
  const settled = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      (value) => value,
      (error: unknown) => error,
    );

  /** A test's work on a run of its own, as the `work` fixture makes one; it ends when `cancelled` aborts. */
  const testWork = (cancelled = new AbortController().signal) =>
    new TestWork('a test', cancelled, new RunTime(), { ownTimeMs: 60_000, backstopMs: 600_000 });

  it(
    'sends nothing more for a test whose body failed while another branch of it still polled, ' + 'and says why',
    async () => {
      const server = await listen((_request, response) => sendJson(response, 404, {}));
      const work = testWork();
      const api = new ApiClient({ baseUrl: server.url, work });
      const pollUntilFound = async (): Promise<never> => {
        for (;;) await api.request('GET', '/persons/g-1');
      };
      // The other branch fails once the first read was answered: a broken rule, say.
      const breakRule = async () => {
        await expect.poll(() => server.received.length).toBeGreaterThan(0);
        throw new Error('the rule was broken');
      };
      let polling!: Promise<never>;
      await expect(work.run(() => Promise.all([(polling = pollUntilFound()), breakRule()]))).rejects.toThrow(
        'the rule was broken',
      );
      const stopped = await settled(polling);
      expect(stopped).toBeInstanceOf(NotSentError);
      expect((stopped as Error).message).toBe('GET /persons/g-1 not sent: the test it was for had ended');
      const sent = server.received.length;
      expect(
        await api
          .forWork(undefined)
          .request('GET', '/persons/g-1')
          .then((answer) => answer.status),
        "as the run's work (the cleanup): sent",
      ).toBe(404);
      expect(server.received).toHaveLength(sent + 1);
    },
  );

  it('sends nothing more for a test vitest cancelled (its timeout), naming the cause', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, {}));
    const cancelled = new AbortController();
    const work = testWork(cancelled.signal);
    const api = new ApiClient({ baseUrl: server.url, work });
    const test = work.run(async () => {
      await api.request('GET', '/first');
      cancelled.abort(new Error('Test timed out in 500ms.'));
      await api.request('GET', '/second');
    });
    await expect(test).rejects.toThrow(
      new NotSentError('GET /second', 'the test it was for had been cancelled (Test timed out in 500ms.)'),
    );
    expect(server.received.map((request) => request.url)).toEqual(['/first']);
  });

  it('sends nothing for a test cancelled before its body began', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, {}));
    const cancelled = new AbortController();
    cancelled.abort(new Error('Bailed out'));
    const work = testWork(cancelled.signal);
    const api = new ApiClient({ baseUrl: server.url, work });
    await expect(work.run(() => api.request('GET', '/first'))).rejects.toThrow(
      new NotSentError('GET /first', 'the test it was for had been cancelled (Bailed out)'),
    );
    expect(server.received).toEqual([]);
  });

  it('does not send a request that was waiting for its turn at the pace when its test ended', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, {}));
    const cancelled = new AbortController();
    // One request a second: the second waits for its turn, and the test is cancelled meanwhile.
    let now = 0;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        cancelled.abort('cancelled');
        now += ms;
      },
    };
    const work = testWork(cancelled.signal);
    const api = new ApiClient({ baseUrl: server.url, clock, pace: new Pace(clock, 1), work });
    const test = work.run(async () => {
      await api.request('GET', '/first');
      await api.request('GET', '/second');
    });
    await expect(test).rejects.toThrow(NotSentError);
    expect(server.received.map((request) => request.url)).toEqual(['/first']);
  });
});
