import { describe, expect, it } from 'vitest';
import { ApiClient, TargetThrottledError } from '../../support/transport/http.js';
import { systemClock, type Clock } from '../../support/transport/clock.js';
import { PACING, Pace, sharedPace } from '../../support/transport/pace.js';
import { TokenProvider } from '../../support/run/tokens.js';
import { fakeClock, sendJson, serversClosedAfterEach } from './local-server.js';

/** Sends `count` requests through the pace one after another, each answered at once; returns when each was let go. */
async function sendThrough(
  pace: Pace,
  clock: Pick<Clock, 'now'>,
  count: number,
  throttled: (index: number) => boolean = () => false,
): Promise<number[]> {
  const sentAt: number[] = [];
  for (let index = 0; index < count; index++) {
    await pace.acquire();
    sentAt.push(clock.now());
    pace.finished({
      sentAt: clock.now(),
      throttled: throttled(index),
      retryAfterMs: throttled(index) ? 1_000 : undefined,
    });
  }
  return sentAt;
}

/** Lets `count` requests go together and answers each, the first `accepted` accepted and the rest refused. */
async function answerTogether(pace: Pace, clock: ReturnType<typeof fakeClock>, count: number, accepted: number) {
  const sentAt = clock.now();
  await Promise.all(Array.from({ length: count }, () => pace.acquire()));
  for (let index = 0; index < count; index++)
    pace.finished({ sentAt, throttled: index >= accepted, retryAfterMs: index >= accepted ? 1_000 : undefined });
}

/** A test of a new pace without a ceiling, on a clock whose sleeps return at once. */
const withPace =
  (body: (pace: Pace, clock: ReturnType<typeof fakeClock>) => Promise<void>) => async (): Promise<void> => {
    const clock = fakeClock();
    await body(new Pace(clock), clock);
  };

describe('Pace', () => {
  it(
    'lets a request free to go now go, however late it was asked for, ' +
      'and refuses one a pause holds past its deadline',
    withPace(async (pace, clock) => {
      // A budget of 0 ms that a millisecond of work before the request already used up.
      const asked = clock.now();
      clock.advance(1);
      expect(await pace.acquire(asked), 'goes at once').toBe(0);
      pace.finished();
      // The opening's refusal: the client pauses for its Retry-After of 1 s.
      await answerTogether(pace, clock, 1, 0);
      expect(await pace.acquire(clock.now() + 500), 'paused for 1 s').toBe(false);
      // A ceiling of 1 a second: waiting for its turn is not held against the deadline.
      const paced = new Pace(clock, 1);
      expect(await paced.acquire()).toBe(0);
      paced.finished();
      const before = clock.now();
      expect(await paced.acquire(clock.now() + 500), 'its slot, a second away').toBe(1_000);
      expect(clock.now() - before).toBe(1_000);
    }),
  );

  it(
    'lets at most a few requests be in flight at once, one until the target has accepted a few, ' +
      'the next as soon as one is answered',
    withPace(async (pace, clock) => {
      const accepted = { sentAt: clock.now(), throttled: false };
      for (const window of [1, PACING.maxInFlight]) {
        await Promise.all(Array.from({ length: window }, () => pace.acquire()));
        let next = false;
        const waiting = pace.acquire().then(() => (next = true));
        await new Promise((settled) => setImmediate(settled));
        expect(next, `waits while ${window} are in flight`).toBe(false);
        pace.finished(accepted);
        await waiting;
        expect(next).toBe(true);
        for (let index = 0; index < window; index++) pace.finished(accepted);
        await sendThrough(pace, clock, PACING.openingAnswers);
      }
    }),
  );

  it(
    'lets a retry go before every request not yet sent, whose deadlines have not begun, and a later page of a list ' +
      'read between them',
    withPace(async (pace, clock) => {
      await sendThrough(pace, clock, PACING.openingAnswers);
      await Promise.all(Array.from({ length: PACING.maxInFlight }, () => pace.acquire()));
      const order: string[] = [];
      const unsent = [pace.acquire(), pace.acquire()].map((held, index) => held.then(() => order.push(`new ${index}`)));
      const retried = pace.acquire(Infinity, 'retry').then(() => order.push('retry'));
      const page = pace.acquire(Infinity, 'continues').then(() => order.push('page'));
      for (let index = 0; index < 4; index++) pace.finished({ sentAt: clock.now(), throttled: false });
      await Promise.all([...unsent, retried, page]);
      expect(order).toEqual(['retry', 'page', 'new 0', 'new 1']);
    }),
  );

  it(
    'lets a token request go first and past a full window: the requests holding their places may wait for it',
    withPace(async (pace, clock) => {
      await sendThrough(pace, clock, PACING.openingAnswers);
      await Promise.all(Array.from({ length: PACING.maxInFlight }, () => pace.acquire()));
      const order: string[] = [];
      const unsent = pace.acquire().then(() => order.push('new'));
      const token = pace.acquire(Infinity, 'new', true).then(() => order.push('token'));
      await token;
      expect(order, 'the token went while every place was held').toEqual(['token']);
      for (let index = 0; index < 2; index++) pace.finished({ sentAt: clock.now(), throttled: false });
      await unsent;
      expect(order).toEqual(['token', 'new']);
    }),
  );

  it('holds nothing back until the target throttles, and spaces requests at a ceiling set from the start', async () => {
    const clock = fakeClock();
    await sendThrough(new Pace(clock), clock, 20);
    expect(clock.sleeps).toEqual([]);
    const paced = await sendThrough(new Pace(clock, 4), clock, 5);
    expect(paced.slice(1).map((at, index) => at - paced[index]!)).toEqual([250, 250, 250, 250]);
  });

  it(
    'pauses every caller for the first refusal it meets, and then sets a rate below what the target accepted; ' +
      'then lets the others go on after one refusal, and pauses every caller for a burst of refusals',
    withPace(async (pace, clock) => {
      await sendThrough(pace, clock, PACING.openingAnswers);
      await pace.acquire();
      pace.finished({ sentAt: clock.now(), throttled: true, retryAfterMs: 3_000 });
      const opened = clock.now();
      await pace.acquire();
      expect(clock.now() - opened, "the opening's refusal pauses every caller").toBe(3_000);
      expect(pace.state(), 'ten accepted within a second').toMatchObject({
        throttledAnswers: 1,
        rps: PACING.openingAnswers * PACING.decrease,
      });
      await Promise.all([pace.acquire(), pace.acquire()]);
      pace.finished({ sentAt: clock.now(), throttled: true, retryAfterMs: 3_000 });
      const started = clock.now();
      await pace.acquire();
      expect(clock.now() - started, 'the refused request waits for its Retry-After alone').toBeLessThan(1_000);
      for (let index = 0; index < 3; index++)
        pace.finished({ sentAt: clock.now(), throttled: true, retryAfterMs: 3_000 });
      await pace.acquire();
      expect(clock.now() - started).toBeGreaterThanOrEqual(3_000);
      expect(pace.state().throttledAnswers).toBe(5);
    }),
  );

  it(
    'lets the requests waiting for their turn go in the order they asked ' + 'when a burst of refusals pauses everyone',
    async () => {
      // A clock whose sleeps end in the order of their deadlines, as the test moves time on.
      let now = 0;
      const sleeping: { at: number; wake: () => void }[] = [];
      const clock = {
        now: () => now,
        sleep: (ms: number) => new Promise<void>((wake) => sleeping.push({ at: now + ms, wake })),
      };
      const settle = () => new Promise((settled) => setImmediate(settled));
      const runUntil = async (until: number) => {
        for (
          await settle();
          sleeping.length > 0 && Math.min(...sleeping.map((each) => each.at)) <= until;
          await settle()
        ) {
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
      const burst = ['a', 'b', 'c'].map(send);
      const queued = ['first', 'second', 'third'].map(send);
      await runUntil(600);
      // Three went at 0, 250 and 500 ms, the others wait their turns; then the three answers ask for a second's rest.
      await Promise.all(burst);
      for (let index = 0; index < 3; index++) pace.finished({ sentAt: 500, throttled: true, retryAfterMs: 1_000 });
      const later = send('later');
      await runUntil(60_000);
      await Promise.all([...queued, later]);
      // Paused until 1.6 s, then one each 5 s: the rate fell to its least, nothing having been accepted.
      expect(wentAt).toMatchObject({ first: 1_600, second: 6_600, third: 11_600, later: 16_600 });
    },
  );

  it(
    'sets the rate below what the target accepted when the opening meets a refusal, once its pause has passed, ' +
      'and gives up a twentieth of it for each refusal now and then',
    withPace(async (pace, clock) => {
      // Of an opening of three, the target accepted two: two a second.
      await sendThrough(pace, clock, 2);
      await answerTogether(pace, clock, 1, 0);
      expect(pace.state().rps, 'paused for the Retry-After of its first refusal').toBeUndefined();
      clock.advance(1_000);
      expect(pace.state().rps).toBeCloseTo(2 * PACING.decrease);
      // Of an opening the other clients took whole, nothing: still one a Retry-After, which admits a request after it.
      const crowded = new Pace(clock);
      await answerTogether(crowded, clock, 1, 0);
      clock.advance(1_000);
      expect(crowded.state().rps).toBeCloseTo(PACING.decrease);
      expect(pace.state().throttledAnswers).toBe(1);

      const steady = new Pace(clock, 50);
      await sendThrough(steady, clock, 40, (index) => index % 10 === 9);
      expect(steady.state().throttledAnswers).toBe(4);
      // The first refusal sets the last limit where the rate was; each after it lowers both by a twentieth.
      expect(steady.state().rps, 'no decrease').toBeCloseTo(50 * PACING.erosion ** 3);
    }),
  );

  it(
    'raises the rate by a step a second after a quiet while in which it held requests back, ' +
      'holds it at what the target accepted before, and then raises it past that, never above the ceiling',
    async () => {
      const clock = fakeClock();
      const pace = new Pace(clock, 10);
      await answerTogether(pace, clock, 4, 1);
      expect(pace.state().rps).toBeCloseTo(PACING.decrease);
      const refusedAt = clock.now();
      // Requests held back at the lowered rate: nothing rises within the quiet while.
      while (clock.now() - refusedAt < PACING.quietMs - 1_000 / PACING.decrease) await sendThrough(pace, clock, 1);
      expect(pace.state().rps).toBeCloseTo(PACING.decrease);
      // Then by the step a second, up to the one a second the target accepted, and held there.
      await sendThrough(pace, clock, 2);
      expect(pace.state().rps).toBeGreaterThan(PACING.decrease);
      while (pace.state().rps! < 1) await sendThrough(pace, clock, 1);
      const heldFrom = clock.now();
      while (clock.now() - heldFrom < PACING.firstHoldMs - 1_000) await sendThrough(pace, clock, 1);
      expect(pace.state().rps).toBe(1);
      await sendThrough(pace, clock, 3);
      expect(pace.state().rps).toBeGreaterThan(1);
      await sendThrough(pace, clock, 500);
      expect(pace.state().rps).toBe(10);
    },
  );

  it(
    'holds at the last limit twice as long after each probe the limit refused, up to the longest hold, ' +
      'and not at all after a probe that found the target accepting more',
    async () => {
      const clock = fakeClock();
      const pace = new Pace(clock, 10);
      await answerTogether(pace, clock, 4, 1);
      /** From a refusal, how long the rate stays at or below `limit` while requests wait for it. */
      const heldAt = async (limit: number): Promise<number> => {
        const from = clock.now();
        while (pace.state().rps! <= limit) await sendThrough(pace, clock, 1);
        return clock.now() - from;
      };
      // After the burst, up to the one a second it accepted, then the first hold; each refused probe doubles it. The
      // burst's first refusals came alone, below the guessed limit: its first probe ends at its second refusal.
      const holds = [];
      for (let probe = 0; probe < 5; probe++) {
        holds.push(await heldAt(1));
        await sendThrough(pace, clock, probe === 0 ? 2 : 1, () => true);
      }
      const expected = [1, 2, 4, 8, 16].map((times) => Math.min(PACING.holdMs, times * PACING.firstHoldMs));
      for (const [index, held] of holds.slice(1).entries()) {
        expect(held, `hold after refused probe ${index + 1}`).toBeGreaterThanOrEqual(expected[index + 1]!);
        expect(held, `hold after refused probe ${index + 1}`).toBeLessThan(
          expected[index + 1]! + PACING.quietMs + 2_000,
        );
      }
      // The limit is gone: the rate rises to three a second, all accepted, and a refusal there finds room past one.
      while (pace.state().rps! < 3) await sendThrough(pace, clock, 1);
      await sendThrough(pace, clock, 1, () => true);
      const limit = pace.state().rps!;
      expect(limit).toBeGreaterThan(2);
      expect(await heldAt(limit), 'only the quiet while after the refusal').toBeLessThan(PACING.quietMs + 2_000);
    },
  );

  it(
    'ends a probe at its second refusal where a lone refusal came below the last limit since the last probe, ' +
      'and at its first elsewhere',
    async () => {
      const clock = fakeClock();
      const pace = new Pace(clock, 10);
      await answerTogether(pace, clock, 4, 1);
      /** Sends while the rate holds at or below `limit`; says the rate that rose past it. */
      const probePast = async (limit: number): Promise<number> => {
        while (pace.state().rps! <= limit) await sendThrough(pace, clock, 1);
        return pace.state().rps!;
      };
      // The burst began with lone refusals below the limit it guessed: a fault as likely as the limit.
      let probing = await probePast(1);
      await sendThrough(pace, clock, 1, () => true);
      expect(pace.state().rps, 'paused, not ended, by its first refusal').toBe(probing);
      await sendThrough(pace, clock, 1, () => true);
      const limit = pace.state().rps!;
      expect(limit, 'ended by its second').toBeLessThan(probing);
      // No refusal since, below the limit: the next probe ends at its first.
      probing = await probePast(limit);
      await sendThrough(pace, clock, 1, () => true);
      expect(pace.state().rps, 'ended by its first refusal').toBeLessThan(probing);
      // A fault while the rate holds at the limit: the next probe takes two refusals again.
      await sendThrough(pace, clock, 3);
      await sendThrough(pace, clock, 1, () => true);
      probing = await probePast(pace.state().rps!);
      await sendThrough(pace, clock, 1, () => true);
      expect(pace.state().rps, 'paused, not ended, after a fault in the hold').toBe(probing);
    },
  );

  it('goes on holding when faults lower the last limit and the rate with it', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock, 10);
    await answerTogether(pace, clock, 4, 1);
    while (pace.state().rps! < 1) await sendThrough(pace, clock, 1);
    await sendThrough(pace, clock, 1);
    const heldFrom = clock.now();
    // Two faults a few answers apart, no burst: each lowers the last limit and the rate by a twentieth.
    await sendThrough(pace, clock, 1, () => true);
    await sendThrough(pace, clock, 1);
    await sendThrough(pace, clock, 1, () => true);
    expect(pace.state().rps).toBeCloseTo(PACING.erosion ** 2);
    while (pace.state().rps! <= PACING.erosion ** 2) await sendThrough(pace, clock, 1);
    expect(clock.now() - heldFrom, 'risen past it once the first hold has passed').toBeLessThan(
      PACING.firstHoldMs + PACING.quietMs + 2_000,
    );
  });

  it(
    'stops rising at the rate a lone refusal met before any limit was learned',
    withPace(async (pace, clock) => {
      // The opening sets a rate and no limit: it rises while requests wait.
      await sendThrough(pace, clock, 2);
      await answerTogether(pace, clock, 1, 0);
      clock.advance(1_000);
      const risingFrom = clock.now();
      while (clock.now() - risingFrom < 10_000) await sendThrough(pace, clock, 1);
      const rising = pace.state().rps!;
      expect(rising, 'no limit yet').toBeGreaterThan(2);
      await sendThrough(pace, clock, 1, () => true);
      const heldFrom = clock.now();
      while (clock.now() - heldFrom < PACING.firstHoldMs) await sendThrough(pace, clock, 1);
      expect(pace.state().rps, 'held at the rate the refusal met').toBe(rising);
    }),
  );

  it('lowers the last limit by at most a fifth a burst, however little the target accepted in it', async () => {
    const clock = fakeClock();
    const pace = new Pace(clock, 10);
    await answerTogether(pace, clock, 4, 1);
    // A burst of which nothing was accepted, its window holding nothing else: it measures the least rate. Its first
    // two refusals, below the last limit, each lowered that limit by a twentieth.
    clock.advance(PACING.acceptedMs);
    await answerTogether(pace, clock, 4, 0);
    expect(pace.state().rps).toBe(PACING.minRps);
    const lowered = PACING.limitFloor * PACING.erosion ** 2;
    while (pace.state().rps! < lowered) await sendThrough(pace, clock, 1);
    await sendThrough(pace, clock, 1);
    expect(pace.state().rps, 'back at the lowered last limit, and held there').toBeCloseTo(lowered);
  });

  it(
    'keeps the rate for one refusal sent before the decrease and for one below the last limit, which lowers that ' +
      'limit by a twentieth; one at the last limit lowers the rate with it, and pauses only itself',
    async () => {
      const clock = fakeClock();
      // A ceiling sets a rate from the start, so the first burst's decrease sets a last limit: one a second.
      const pace = new Pace(clock, 10);
      await answerTogether(pace, clock, 4, 1);
      const lowered = pace.state().rps!;
      await pace.acquire();
      pace.finished({ sentAt: clock.now() - 10_000, throttled: true, retryAfterMs: 1_000 });
      expect(pace.state().rps, 'a refusal of a request sent before the decrease').toBe(lowered);
      await sendThrough(pace, clock, 1, () => true);
      expect(pace.state().rps, 'below the last limit').toBe(lowered);
      // Held at the lowered last limit: two refusals an answer apart are no burst, so what the second one does comes
      // of the first one's lowering.
      while (pace.state().rps! < PACING.erosion) await sendThrough(pace, clock, 1);
      await sendThrough(pace, clock, 1);
      await sendThrough(pace, clock, 1, () => true);
      expect(pace.state().rps, 'at the last limit, lowered with it').toBeCloseTo(PACING.erosion ** 2);
      expect(pace.pausedUntilMs(), 'only the refused request waits').toBeLessThanOrEqual(clock.now());
    },
  );
});

describe('TargetThrottledError', () => {
  it('names the rate the client was held to as the setting would be written, however slow', () => {
    const error = new TargetThrottledError(
      'h',
      3,
      30_000,
      { rps: 0.9 / 60, throttledAnswers: 3, throttledForMs: 30_000 },
      [],
      'GET /p',
      'Retry-After 60 s',
    );
    expect(error.message).toContain('held to 0.015 requests a second (CONTRACT_MAX_RPS not set)');
    expect(error.message).toContain('Set CONTRACT_MAX_RPS below 0.015');
  });
});

describe('ApiClient with a shared pace', () => {
  const listen = serversClosedAfterEach();

  it('renews a token through the same pace while the start is full of requests waiting for that token', async () => {
    const server = await listen((request, response) =>
      request.url.endsWith('/token.oauth2')
        ? sendJson(response, 200, { access_token: 'renewed-token', expires_in: 3600 })
        : sendJson(response, 200, { authorization: request.headers.authorization }),
    );
    const credentials = { clientId: 'paced-client', clientSecret: 'paced-secret' };
    const pace = sharedPace(server.url, credentials.clientId, systemClock);
    // Issued long ago: due for renewal at the first call.
    const expired = { accessToken: 'old-token', issuedAt: Date.now() - 7_200_000, expiresAt: Date.now() - 3_600_000 };
    const api = new ApiClient({
      baseUrl: server.url,
      pace,
      auth: { kind: 'bearer', tokens: new TokenProvider(server.url, credentials, expired) },
    });
    const answers = await Promise.all(
      Array.from({ length: 3 * PACING.maxInFlight }, () => api.request('GET', '/persons')),
    );
    expect(
      answers.every((answer) => (answer.body as { authorization: string }).authorization === 'Bearer renewed-token'),
    ).toBe(true);
  });

  it('gives back the turn of a request whose token fell due in it, and sends it a turn after the renewal', async () => {
    const clock = fakeClock();
    const arrivals: { at: number; url: string }[] = [];
    const server = await listen((request, response) => {
      arrivals.push({ at: clock.now(), url: request.url });
      return request.url.endsWith('/token.oauth2')
        ? sendJson(response, 200, { access_token: 'renewed-token', expires_in: 20 })
        : sendJson(response, 200, {});
    });
    const credentials = { clientId: 'turned-client', clientSecret: 'turned-secret' };
    // One request a second, and a token of 20 s: it falls due while the later requests wait for their turns.
    const pace = sharedPace(new URL(server.url).origin, credentials.clientId, clock, 1);
    const issued = { accessToken: 'first-token', issuedAt: clock.now(), expiresAt: clock.now() + 20_000 };
    const tokens = new TokenProvider(server.url, credentials, issued, { clock });
    const api = new ApiClient({ baseUrl: server.url, clock, pace, auth: { kind: 'bearer', tokens } });
    // One after another, so that each arrives at the time its turn came.
    for (let index = 0; index < 20; index++) await api.request('GET', '/persons');
    expect(arrivals.filter((arrival) => arrival.url.endsWith('/token.oauth2'))).toHaveLength(1);
    const gaps = arrivals.slice(1).map((arrival, index) => arrival.at - arrivals[index]!.at);
    expect(Math.min(...gaps), 'every request, the renewal among them, a second after the one before').toBe(1_000);
  });

  it('sends a later page of a list read under way before the requests queued behind it', async () => {
    const arrived: string[] = [];
    const server = await listen((request, response) => {
      arrived.push(request.url);
      sendJson(response, 200, {});
    });
    const pace = new Pace(systemClock);
    const api = new ApiClient({ baseUrl: server.url, pace });
    // Past the opening, every place in flight taken: what is asked for now queues.
    await sendThrough(pace, systemClock, PACING.openingAnswers);
    await Promise.all(Array.from({ length: PACING.maxInFlight }, () => pace.acquire()));
    const queued = api.request('GET', '/persons');
    const page = api.request('GET', '/consumers', { query: { cursor: '2' }, continues: true });
    await new Promise((settled) => setImmediate(settled));
    // One place given back: the first in the queue goes alone, the other once it is answered.
    pace.finished();
    await Promise.all([queued, page]);
    expect(arrived).toEqual(['/consumers?cursor=2', '/persons']);
    for (let index = 1; index < PACING.maxInFlight; index++) pace.finished();
  });

  it("holds another caller of the same client back for the Retry-After of one caller's burst", async () => {
    let calls = 0;
    const server = await listen((_request, response) =>
      ++calls === 1 ? sendJson(response, 429, {}, { 'retry-after': '5' }) : sendJson(response, 200, {}),
    );
    const clock = fakeClock();
    const pace = new Pace(clock);
    await sendThrough(pace, clock, PACING.openingAnswers);
    const [first, second] = [
      new ApiClient({ baseUrl: server.url, clock, pace }),
      new ApiClient({ baseUrl: server.url, clock, pace }),
    ];
    expect((await first.request('GET', '/a')).status).toBe(200);
    const before = clock.now();
    // A burst of throttled answers of a third caller of the same client: a caller arriving during the
    // pause waits for what is left.
    await Promise.all([pace.acquire(), pace.acquire(), pace.acquire()]);
    for (let index = 0; index < 3; index++)
      pace.finished({ sentAt: clock.now(), throttled: true, retryAfterMs: 5_000 });
    expect((await second.request('GET', '/b')).status).toBe(200);
    expect(clock.now() - before).toBeGreaterThanOrEqual(5_000);
  });
});
