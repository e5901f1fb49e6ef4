import { describe, expect, it } from 'vitest';
import { ApiClient, TargetThrottledError, systemClock } from '../../support/transport/http.js';
import { PACING, Pace, readRateLimitHeaders, sharedPace } from '../../support/transport/pace.js';
import { TokenProvider } from '../../support/run/tokens.js';
import { fakeClock, sendJson, serversClosedAfterEach } from './local-server.js';

/** Sends `count` requests through the pace one after another, each answered at once; returns when each was let go. */
async function sendThrough(pace: Pace, clock: ReturnType<typeof fakeClock>, count: number, throttled: (index: number) => boolean = () => false): Promise<number[]> {
  const sentAt: number[] = [];
  for (let index = 0; index < count; index++) {
    await pace.acquire();
    sentAt.push(clock.now());
    pace.finished({ sentAt: clock.now(), throttled: throttled(index), retryAfterMs: throttled(index) ? 1_000 : undefined });
  }
  return sentAt;
}

describe('Pace', () => {
  it('starts with a few requests in flight, one more for each answered, and opens once that many are answered', async () => {
    // A clock whose end of the start never comes: only answers widen the window here.
    const fake = fakeClock();
    const clock = { ...fake, sleep: (ms: number) => (ms >= PACING.openAfterMs / 2 ? new Promise<void>(() => {}) : fake.sleep(ms)) };
    const pace = new Pace(clock);
    const inFlight = await Promise.all(Array.from({ length: PACING.initialWindow }, () => pace.acquire()));
    let fifth = false;
    const waiting = pace.acquire().then((held) => {
      fifth = true;
      return held;
    });
    await Promise.resolve();
    expect([inFlight.length, fifth]).toEqual([PACING.initialWindow, false]);
    fake.advance(300);
    pace.finished({ sentAt: clock.now(), throttled: false });
    expect(await waiting, "300 ms in the start's window, the run's own caution: not a wait for the target's rate").toBe(0);
    // Answered one by one, the window widens until it is open: no request waits any more.
    await sendThrough(pace, clock, PACING.openWindow);
    const open = await Promise.race([Promise.all(Array.from({ length: 200 }, () => pace.acquire())).then(() => 'open'), new Promise((resolve) => setTimeout(() => resolve('held'), 50))]);
    expect(open).toBe('open');
  });

  it('lets a request free to go now go, however late it was asked for, and refuses one that would have to wait past its deadline', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock);
    // A budget of 0 ms that a millisecond of work before the request already used up.
    const asked = clock.now();
    clock.advance(1);
    expect(await pace.acquire(asked), 'goes at once').toBe(0);
    pace.finished({ sentAt: clock.now(), throttled: true, retryAfterMs: 1_000 });
    expect(await pace.acquire(clock.now() + 500), 'paused for 1 s').toBe(false);
    // A ceiling of 1 a second: a request refused for its deadline takes no slot from the next one.
    const paced = new Pace(clock, 1);
    expect(await paced.acquire()).toBe(0);
    paced.finished();
    expect(await paced.acquire(clock.now() + 500), 'its slot is a second away').toBe(false);
    const before = clock.now();
    const held = await paced.acquire();
    expect(clock.now() - before, 'the next request goes in the refused one\'s slot, not after it').toBe(1_000);
    expect(held, 'held for the pace that long').toBe(1_000);
  });

  it('ends the start in time even when no answer comes', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock);
    await Promise.all(Array.from({ length: PACING.initialWindow }, () => pace.acquire()));
    // Nothing answers; the next caller still goes once the start is over.
    await pace.acquire();
    expect(clock.now() - 1_000_000).toBeGreaterThanOrEqual(PACING.openAfterMs);
  });

  it('ends the start once the target refused as many as it accepted, paced below what it accepted; a fault now and then, or a few among few answers, only pauses', async () => {
    const clock = fakeClock();
    const faulty = new Pace(clock);
    await sendThrough(faulty, clock, 10, (index) => index === 9);
    expect(faulty.state(), 'one transient fault: a pause, and the start goes on').toMatchObject({ rps: undefined, throttledAnswers: 1 });
    await sendThrough(faulty, clock, PACING.openWindow);
    expect(clock.sleeps, 'nothing held back after the pause').toEqual([1_000]);

    const sentAt = clock.now();
    const fewAnswers = new Pace(clock);
    for (const throttled of [false, false, false, false, false, true, true]) fewAnswers.observe({ sentAt, throttled, retryAfterMs: 1_000 });
    expect(fewAnswers.state(), "two faults among seven answers: the start's own window let only five through").toMatchObject({ rps: undefined, throttledAnswers: 2 });

    const limited = new Pace(clock);
    for (let index = 0; index < 18; index++) limited.observe({ sentAt, throttled: index >= 9, retryAfterMs: 1_000 });
    expect(limited.state().rps).toBeCloseTo(9 * PACING.margin);
  });

  it('holds nothing back once started until the target says something, and spaces requests at a ceiling set from the start', async () => {
    const clock = fakeClock();
    await sendThrough(new Pace(clock), clock, 20);
    expect(clock.sleeps).toEqual([]);
    const paced = await sendThrough(new Pace(clock, 4), clock, 5);
    expect(paced.slice(1).map((at, index) => at - paced[index]!)).toEqual([250, 250, 250, 250]);
  });

  it('pauses every caller until the Retry-After of one throttled answer has passed', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock);
    pace.observe({ sentAt: clock.now(), throttled: true, retryAfterMs: 3_000 });
    const started = clock.now();
    await Promise.all([pace.acquire(), pace.acquire(), pace.acquire()]);
    expect(clock.now() - started).toBeGreaterThanOrEqual(3_000);
    // Nothing was accepted yet: no rate to guess.
    expect(pace.state()).toMatchObject({ throttledAnswers: 1, rps: undefined });
  });

  it('keeps the place of every request waiting for its slot when a throttled answer pauses everyone: the queue moves back in its order', async () => {
    // A clock whose sleeps end in the order of their deadlines, as the test moves time on.
    let now = 0;
    const sleeping: { at: number; wake: () => void }[] = [];
    const clock = { now: () => now, sleep: (ms: number) => new Promise<void>((wake) => sleeping.push({ at: now + ms, wake })) };
    const settle = () => new Promise((settled) => setImmediate(settled));
    const runUntil = async (until: number) => {
      for (await settle(); sleeping.length > 0 && Math.min(...sleeping.map((each) => each.at)) <= until; await settle()) {
        sleeping.sort((a, b) => a.at - b.at);
        const next = sleeping.shift()!;
        now = next.at;
        next.wake();
      }
      now = until;
    };
    const pace = new Pace(clock, 4);
    const wentAt: Record<string, number> = {};
    const send = (name: string) => pace.acquire().then(() => void (wentAt[name] = now));
    const queued = ['first', 'second', 'third'].map(send);
    await runUntil(100);
    // The first went at once; the others wait for 250 and 500 ms. Then one answer asks for a second's rest.
    pace.observe({ sentAt: 0, throttled: true, retryAfterMs: 1_000 });
    const later = send('later');
    await runUntil(5_000);
    await Promise.all([...queued, later]);
    expect(wentAt).toEqual({ first: 0, second: 1_250, third: 1_500, later: 1_750 });
  });

  it('lowers the pace below what the target accepted when a burst is refused, once per burst, and not for one refusal now and then', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock);
    // A burst of 30 at once, of which the target accepted 10.
    const sentAt = clock.now();
    for (let index = 0; index < 30; index++) pace.observe({ sentAt, throttled: index >= 10, retryAfterMs: 1_000 });
    expect(pace.state().rps).toBeCloseTo(10 * PACING.margin);
    expect(pace.state().throttledAnswers).toBe(20);

    const steady = new Pace(clock, 50);
    await sendThrough(steady, clock, 40, (index) => index % 10 === 9);
    expect(steady.state()).toMatchObject({ rps: 50, throttledAnswers: 4 });
  });

  it('never lowers the pace below what the target accepted over the last ten seconds, when transient refusals bunch in one window', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock, 10);
    // Ten seconds at 4 a second, every answer accepted: a slow client, a target that takes all of it.
    for (let index = 0; index < 40; index++) {
      pace.observe({ sentAt: clock.now(), throttled: false });
      clock.advance(250);
    }
    // Then a window in which a transient fault hit two of three requests.
    const sentAt = clock.now();
    for (const throttled of [false, true, true]) pace.observe({ sentAt, throttled, retryAfterMs: 1_000 });
    expect(pace.state().rps, 'what the target accepted over the span, less the margin').toBeCloseTo((41 / 10) * PACING.margin, 1);
    expect(pace.state().rps, 'not the one window\'s single accepted answer').toBeGreaterThan(1 * PACING.margin);
  });

  it('raises the pace again only after a quiet while in which it held requests back, never above the ceiling', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock, 10);
    const sentAt = clock.now();
    for (let index = 0; index < 8; index++) pace.observe({ sentAt, throttled: index >= 4, retryAfterMs: 1_000 });
    const lowered = pace.state().rps!;
    expect(lowered).toBeCloseTo(4 * PACING.margin);
    // Requests held back at the lowered pace for longer than the quiet period.
    await sendThrough(pace, clock, Math.ceil((lowered * PACING.quietMs) / 1000) + 4);
    expect(pace.state().rps).toBeCloseTo(lowered * PACING.increase);
    await sendThrough(pace, clock, 400);
    expect(pace.state().rps).toBe(10);
  });

  it('follows what the target says in rate-limit headers', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock);
    pace.observe({ sentAt: clock.now(), throttled: false, headers: { 'ratelimit-policy': '20;w=10', 'ratelimit-remaining': '0', 'ratelimit-reset': '4' } });
    const started = clock.now();
    const sentAt = await sendThrough(pace, clock, 3);
    expect(sentAt[0]! - started).toBe(4_000);
    expect(sentAt[2]! - sentAt[1]!).toBeCloseTo(1000 / (2 * PACING.margin), 0);
  });
});

describe('readRateLimitHeaders', () => {
  const now = 1_700_000_000_000;
  it('reads a policy with its window, and an exhausted quota with its reset as a delay or an epoch time', () => {
    expect(readRateLimitHeaders({ 'ratelimit-policy': '100;w=60' }, now)).toEqual({ perSecond: 100 / 60 });
    expect(readRateLimitHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }, now)).toEqual({ resetMs: 2_000 });
    expect(readRateLimitHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }, now)).toEqual({ resetMs: 30_000 });
  });

  it('ignores a limit without its window, and a quota not yet used up', () => {
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': '60' }, now)).toEqual({});
    expect(readRateLimitHeaders({ ratelimit: '"burst";r=12;t=30' }, now)).toEqual({});
  });

  it('reads the policies of every form the drafts gave them, and paces by the strictest', () => {
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"burst";q=100;w=10' }, now)).toEqual({ perSecond: 10 });
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '20, 20;w=60' }, now)).toEqual({ perSecond: 20 / 60 });
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"burst";q=50;w=1, "minute";q=600;w=60' }, now)).toEqual({ perSecond: 10 });
    expect(readRateLimitHeaders({ ratelimit: '"burst";r=0;t=3, "minute";r=0;t=20' }, now)).toEqual({ resetMs: 20_000 });
  });

  it('takes a quota over a long window for a quota, not a pace: a run would never use up a daily one', () => {
    // Spread over its month, this policy would space the run's requests 3 minutes apart.
    expect(readRateLimitHeaders({ 'x-ratelimit-policy': '15000;w=2592000, 1;w=1', 'x-ratelimit-limit': '15000, 1' }, now)).toEqual({ perSecond: 1 });
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"daily";q=5000;w=86400' }, now)).toEqual({});
  });
});

describe('TargetThrottledError', () => {
  it('names the rate the client was held to as the setting would be written, however slow', () => {
    const error = new TargetThrottledError('h', 3, 30_000, { rps: 0.9 / 60, throttledAnswers: 3, throttledForMs: 30_000 }, [], 'GET /p', 'Retry-After 60 s');
    expect(error.message).toContain('held to 0.015 requests a second (CONTRACT_MAX_RPS not set)');
    expect(error.message).toContain('Set CONTRACT_MAX_RPS below 0.015');
  });
});

describe('ApiClient with a shared pace', () => {
  const listen = serversClosedAfterEach();

  it('renews a token through the same pace while the start is full of requests waiting for that token', async () => {
    const server = await listen((request, response) =>
      request.url.endsWith('/token.oauth2') ? sendJson(response, 200, { access_token: 'renewed-token', expires_in: 3600 }) : sendJson(response, 200, { authorization: request.headers.authorization }),
    );
    const credentials = { clientId: 'paced-client', clientSecret: 'paced-secret' };
    const pace = sharedPace(server.url, credentials.clientId, systemClock);
    // Issued long ago: due for renewal at the first call.
    const expired = { accessToken: 'old-token', issuedAt: Date.now() - 7_200_000, expiresAt: Date.now() - 3_600_000 };
    const api = new ApiClient({ baseUrl: server.url, pace, auth: { kind: 'bearer', tokens: new TokenProvider(server.url, credentials, expired) } });
    const answers = await Promise.all(Array.from({ length: 3 * PACING.initialWindow }, () => api.request('GET', '/persons')));
    expect(answers.every((answer) => (answer.body as { authorization: string }).authorization === 'Bearer renewed-token')).toBe(true);
  });

  it("holds another caller of the same client back for one caller's Retry-After", async () => {
    let calls = 0;
    const server = await listen((_request, response) => (++calls === 1 ? sendJson(response, 429, {}, { 'retry-after': '5' }) : sendJson(response, 200, {})));
    const clock = fakeClock();
    const pace = new Pace(clock);
    const [first, second] = [new ApiClient({ baseUrl: server.url, clock, pace }), new ApiClient({ baseUrl: server.url, clock, pace })];
    expect((await first.request('GET', '/a')).status).toBe(200);
    const before = clock.now();
    // The first caller's retry already waited the 5 s; a caller arriving during the pause waits for what is left.
    pace.observe({ sentAt: clock.now(), throttled: true, retryAfterMs: 5_000 });
    expect((await second.request('GET', '/b')).status).toBe(200);
    expect(clock.now() - before).toBeGreaterThanOrEqual(5_000);
  });

  it('says a request not sent in time waited for its turn at the pace, not for a pause, when no pause holds it', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, {}));
    const clock = fakeClock();
    // A ceiling of 1 a second: the second request's turn is a second away, past its 500 ms deadline.
    const api = new ApiClient({ baseUrl: server.url, clock, pace: new Pace(clock, 1), deadlineMs: 500 });
    await api.request('GET', '/a');
    const error = await api.request('GET', '/b').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TargetThrottledError);
    expect((error as Error).message).toContain("not sent: its turn at this client's pace came after the request's 500 ms deadline");
  });

  it('paces by the rate-limit headers of an answer as they come over the wire, and tells each exchange how long it waited', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, {}, { 'RateLimit-Policy': '"per-client";q=2;w=1, "daily";q=5000;w=86400' }));
    const clock = fakeClock();
    const pace = new Pace(clock);
    const api = new ApiClient({ baseUrl: server.url, clock, pace });
    await api.request('GET', '/a');
    expect(pace.state().rps).toBeCloseTo(2 * PACING.margin);
    await api.request('GET', '/b');
    const third = await api.request('GET', '/c');
    expect(third.exchanges.at(-1)!.pacedMs).toBeCloseTo(1000 / (2 * PACING.margin), 0);
  });
});
