import { describe, expect, it, vi } from 'vitest';
import { ConsistencyHistory, NotConsistentError, POLLING, TimesEstimate, WaitRejectedError, eventually, onWait, pollDelay, watch, type WaitAttempts } from '../../support/readings/eventually.js';
import type { ApiResponse } from '../../support/transport/http.js';
import { fakeClock } from './local-server.js';

function answer(status: number, body: unknown = {}, headers: Record<string, string> = {}): ApiResponse {
  return { status, ok: status >= 200 && status < 300, headers, body, text: JSON.stringify(body), url: 'http://target/persons/g1', exchanges: [], receivedAt: 0 };
}

/** A read that answers the given responses in turn (the last one repeats), each taking `costMs` of fake time. */
function reads(clock: ReturnType<typeof fakeClock>, responses: ApiResponse[], costMs = 10): { read: () => Promise<ApiResponse>; count: () => number } {
  let calls = 0;
  return {
    read: async () => {
      clock.advance(costMs);
      return responses[Math.min(calls++, responses.length - 1)] as ApiResponse;
    },
    count: () => calls,
  };
}

const found = (response: ApiResponse) => (response.ok ? (response.body as { gedi?: string }).gedi : undefined);

/** A history of its own for each wait (the default is shared by the process), seeded with earlier creations' times. */
function historyOf(...consistentAfterMs: number[]): ConsistencyHistory {
  const history = new ConsistencyHistory();
  for (const ms of consistentAfterMs) history.record('create', ms);
  return history;
}

describe('watch', () => {
  const changed = (response: ApiResponse) => (response.body as { familyName?: string }).familyName === 'Other';

  it('reads once, at the end of the window, and answers undefined when the state never came, a quiet outcome rather than a timeout', async () => {
    const clock = fakeClock();
    const { read, count } = reads(clock, [answer(200, { familyName: 'Own' })], 50);
    const seen: WaitAttempts[] = [];
    const stop = onWait((wait) => seen.push(wait));
    try {
      expect(await watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock, random: () => 0.5, history: historyOf() })).toBeUndefined();
    } finally {
      stop();
    }
    expect(clock.now()).toBeGreaterThanOrEqual(2_000);
    // A state, once shown, stays: a read at the end sees what came at any time inside the window.
    expect(count()).toBe(1);
    expect(seen).toEqual([expect.objectContaining({ what: 'person g1 to change', outcome: 'quiet', attempts: count() })]);
  });

  it('answers the response that shows the state', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { familyName: 'Other' })], 50);
    const result = await watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock, random: () => 0.5, history: historyOf() });
    expect(result).toMatchObject({ attempts: 1, response: { body: { familyName: 'Other' } } });
  });

  it('still stops at a status that waiting cannot change', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(401)]);
    await expect(watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock, history: historyOf() })).rejects.toBeInstanceOf(WaitRejectedError);
  });
});

describe('eventually', () => {
  it('returns at once when the first read already holds', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { gedi: 'g1' })]);
    const result = await eventually('person g1 to be available', read, found, { timeoutMs: 1000, clock, history: historyOf() });
    expect(result).toMatchObject({ value: 'g1', attempts: 1, elapsedMs: 10 });
    expect(clock.sleeps).toEqual([]);
  });

  it('repeats the read until the predicate holds, with intervals that grow with the time waited while nothing is known', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(404), answer(404), answer(404), answer(404), answer(200, { gedi: 'g1' })], 100);
    const result = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history: historyOf() });
    expect(result.attempts).toBe(5);
    expect(result.response.status).toBe(200);
    expect(clock.sleeps).toEqual([50, 75, 128, 196]);
  });

  it('accepts falsy values other than undefined, null and false', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { count: 0 })]);
    const result = await eventually('a count', read, (response) => (response.body as { count: number }).count, { timeoutMs: 1000, clock, history: historyOf() });
    expect(result.value).toBe(0);
  });

  it.each([
    ['with no history', historyOf()],
    ['when earlier waits say the effect comes sooner', historyOf(200)],
  ])('waits at least as long as Retry-After asks, %s', async (_, history) => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(429, {}, { 'retry-after': '3' }), answer(200, { gedi: 'g1' })]);
    await eventually('person g1', read, found, { timeoutMs: 30_000, clock, history });
    expect(clock.sleeps).toEqual([3000]);
  });

  it.each([400, 401, 403])('fails at once on %i, naming what it waited for and the answer', async (status) => {
    const clock = fakeClock();
    const { read, count } = reads(clock, [answer(status, { error: 'denied', access_token: 'leaked-token-value' })]);
    const error = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock, history: historyOf() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitRejectedError);
    expect(count()).toBe(1);
    expect((error as Error).message).toContain('person g1 to be available');
    expect((error as Error).message).toContain(`${status} {"error":"denied","access_token":"[REDACTED]"}`);
  });

  it('times out with what it waited for, the elapsed time, the attempts and the last answer', async () => {
    const clock = fakeClock();
    const { read, count } = reads(clock, [answer(404, { error: 'not found', token: 'secret-token-value' })], 50);
    const error = await eventually('person g1 to be available', read, found, { timeoutMs: 5_000, clock, random: () => 0.5, history: historyOf() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotConsistentError);
    const notConsistent = error as NotConsistentError;
    expect(notConsistent.what).toBe('person g1 to be available');
    expect(notConsistent.attempts).toBe(count());
    expect(notConsistent.elapsedMs).toBeGreaterThanOrEqual(5_000);
    expect(notConsistent.elapsedMs).toBeLessThan(5_100);
    expect(notConsistent.lastResponse.body).toEqual({ error: 'not found', token: '[REDACTED]' });
    expect(notConsistent.message).toMatch(/^Not consistent within \d+ ms: waited for person g1 to be available; \d+ attempt\(s\); last answer 404 \{"error":"not found","token":"\[REDACTED\]"\}$/);
    // The interval grows with the wait, so a 5 s wait takes a handful of attempts, not a hundred.
    expect(count()).toBeLessThan(20);
  });

  it.each([
    ['with no history', historyOf()],
    ['with a history longer than the deadline', historyOf(10_000)],
  ])('makes its last attempt at the deadline instead of sleeping past it, %s', async (_, history) => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(404)], 0);
    await eventually('never', read, found, { timeoutMs: 1_000, clock, random: () => 0.5, history }).catch(() => undefined);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(1_000);
  });

  it('tells the read at the deadline that it is the last, and no read before it', async () => {
    const clock = fakeClock();
    const finals: boolean[] = [];
    const { read } = reads(clock, [answer(404)], 0);
    await eventually('never', async (attempt) => (finals.push(attempt.final), read()), found, { timeoutMs: 1_000, clock, random: () => 0.5, history: historyOf() }).catch(() => undefined);
    expect(finals.length).toBeGreaterThan(2);
    expect(finals.at(-1)).toBe(true);
    expect(finals.slice(0, -1)).not.toContain(true);
  });

  it('tells each read whether half the wait\'s time has passed', async () => {
    const clock = fakeClock();
    const told: { at: number; pastHalfway: boolean }[] = [];
    const started = clock.now();
    const { read } = reads(clock, [answer(404)], 0);
    await eventually('never', async (attempt) => (told.push({ at: clock.now() - started, pastHalfway: attempt.pastHalfway }), read()), found, { timeoutMs: 1_000, clock, random: () => 0.5, history: historyOf() }).catch(() => undefined);
    expect(told.some(({ pastHalfway }) => pastHalfway) && told.some(({ pastHalfway }) => !pastHalfway)).toBe(true);
    for (const { at, pastHalfway } of told) expect(pastHalfway, `the read at ${at} ms`).toBe(at >= 500);
  });

  it('learns, from a wait for a transition, the interval its effect came in: from its last read that did not see it, or from the write when its first read saw it', async () => {
    const clock = fakeClock();
    const history = historyOf();
    const created = { name: 'create' as const, since: clock.now() - 100 };
    await eventually('later', reads(clock, [answer(404), answer(200, { gedi: 'g' })], 10).read, found, { timeoutMs: 1_000, clock, random: () => 0.5, history, transition: created });
    // Read 100 ms after the write (not yet), then after the 50 ms minimum interval at 160 ms: its weight lies evenly on 100 to 160 ms.
    expect(history.firstLookMs('create')).toBe(Math.round(100 + 60 * POLLING.firstLookQuantile));
    await eventually('a lookup', reads(clock, [answer(404), answer(200, { gedi: 'g' })]).read, found, { timeoutMs: 1_000, clock, history });
    expect(history.firstLookMs('create'), 'a wait that is not for a transition teaches nothing').toBe(Math.round(100 + 60 * POLLING.firstLookQuantile));
    const seenAtOnce = historyOf();
    await eventually('at once', reads(clock, [answer(200, { gedi: 'g' })], 10).read, found, { timeoutMs: 1_000, clock, random: () => 0.5, history: seenAtOnce, transition: { name: 'create', since: clock.now() - 2_000 } });
    expect(seenAtOnce.firstLookMs('create'), 'seen by its first read, 2 s after the write: somewhere in 0 to 2 s').toBe(Math.round(2_000 * POLLING.firstLookQuantile));
  });

  it('tells wait listeners how many attempts each wait took and what the reads that did not yet see it answered', async () => {
    const clock = fakeClock();
    const waits: WaitAttempts[] = [];
    const stop = onWait((wait) => waits.push(wait));
    await eventually('first', reads(clock, [answer(404), answer(200, { gedi: 'g' })]).read, found, { timeoutMs: 1_000, clock, history: historyOf() });
    await eventually('second', reads(clock, [answer(403)]).read, found, { timeoutMs: 1_000, clock, history: historyOf() }).catch(() => undefined);
    stop();
    expect(waits).toEqual([
      { what: 'first', outcome: 'consistent', attempts: 2, elapsedMs: expect.any(Number), notYetStatuses: [404] },
      { what: 'second', outcome: 'rejected', attempts: 1, elapsedMs: 10, notYetStatuses: [403] },
    ]);
  });
});

describe('a wait for a transition', () => {
  it('tells its listeners the interval the effect came in: after the last read that did not see it, by the first that did', async () => {
    const clock = fakeClock();
    const since = clock.now() - 100;
    const waits: WaitAttempts[] = [];
    const stop = onWait((wait) => waits.push(wait));
    await eventually('created', reads(clock, [answer(404), answer(404), answer(200, { gedi: 'g' })]).read, found, { timeoutMs: 1_000, clock, random: () => 0.5, history: historyOf(), transition: { name: 'create', since } });
    stop();
    // Nothing learned: reads 100 ms after the write, then 50 ms (the minimum) and 30 % of the 170 ms since the write later, 10 ms each.
    expect(waits).toEqual([expect.objectContaining({ transition: 'create', notYetAfterMs: 160, consistentAfterMs: 221, notYetStatuses: [404, 404] })]);
  });

  it('reads first at the 50th percentile of the learned times after the write, not at once, then 20 % of the time since the write apart', async () => {
    const clock = fakeClock();
    const history = historyOf(1_000, 2_000, 3_000, 4_000, 5_000);
    expect(history.learnedFrom('create'), 'learned: not the wider steps of a run that knows little yet').toBeGreaterThanOrEqual(POLLING.learnedFrom);
    const { read } = reads(clock, [answer(404), answer(404), answer(200, { gedi: 'g1' })], 0);
    const result = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: { name: 'create', since: clock.now() } });
    expect(clock.sleeps).toEqual([3_000, 600, 720]);
    expect(result.attempts).toBe(3);
  });

  it('steps 20 % apart for a transition that has just begun to count its own times, not the wider steps of a run that knows little', async () => {
    const clock = fakeClock();
    const history = historyOf(...Array.from({ length: 10 }, () => 1_000));
    for (let i = 0; i < POLLING.ownFrom; i++) history.record('update', 2_000);
    const { read } = reads(clock, [answer(404), answer(404), answer(200, { gedi: 'g1' })], 0);
    await eventually('person g1 to show the update', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: { name: 'update', since: clock.now() } });
    // Its own three times, all 2 s: the first look at 2 s, then 20 % of the time since the write apart.
    expect(clock.sleeps).toEqual([2_000, 400, 480]);
  });

  it('reads at once when the write is older than the first look', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { gedi: 'g1' })], 0);
    await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history: historyOf(1_000), transition: { name: 'create', since: clock.now() - 5_000 } });
    expect(clock.sleeps).toEqual([]);
  });

  it('while nothing is learned, lets one wait read for all of them: the others read only once it has seen its effect', async () => {
    const clock = fakeClock();
    const history = historyOf();
    const log: string[] = [];
    const logged = (name: string, responses: ApiResponse[]) => {
      const { read } = reads(clock, responses, 10);
      return async () => {
        const response = await read();
        log.push(`${name} ${response.status}`);
        return response;
      };
    };
    const created = () => ({ name: 'create' as const, since: clock.now() });
    await Promise.all([
      eventually('scout', logged('scout', [answer(404), answer(200, { gedi: 'a' })]), found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: created() }),
      eventually('follower', logged('follower', [answer(200, { gedi: 'b' })]), found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: created() }),
    ]);
    expect(log).toEqual(['scout 404', 'scout 200', 'follower 200']);
  });

  it('spreads the first reads of the waits that waited for the scout from the moment it saw its effect, rather than all at once', async () => {
    const clock = fakeClock();
    const history = historyOf();
    const firstReads: Record<string, number> = {};
    const timed = (name: string, responses: ApiResponse[]) => {
      const { read } = reads(clock, responses, 10);
      return () => ((firstReads[name] ??= clock.now()), read());
    };
    const created = () => ({ name: 'create' as const, since: clock.now() });
    await Promise.all([
      eventually('scout', timed('scout', [answer(404), answer(404), answer(404), answer(404), answer(200, { gedi: 'a' })]), found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: created() }),
      // The earliest share of the first look, and the latest.
      eventually('early', timed('early', [answer(200, { gedi: 'b' })]), found, { timeoutMs: 30_000, clock, random: () => 0, history, transition: created() }),
      eventually('late', timed('late', [answer(200, { gedi: 'c' })]), found, { timeoutMs: 30_000, clock, random: () => 0.999, history, transition: created() }),
    ]);
    // The first look, about the time the scout saw its effect, was learned after the earliest share
    // of it (0.6) had passed: that wait reads at once, the latest (1.3) not before 0.7 of it more.
    const learnedAfter = firstReads.early! - firstReads.scout!;
    expect(firstReads.late! - firstReads.early!).toBeGreaterThan(0.5 * learnedAfter);
  });

  it('times an effect that follows another one from that sighting, and reports its time from the write', async () => {
    const clock = fakeClock();
    const history = historyOf(1_000);
    const waits: WaitAttempts[] = [];
    const stop = onWait((wait) => waits.push(wait));
    const subscription = { name: 'subscription' as const, since: clock.now() - 3_000, after: clock.now() };
    await eventually('subscribed', reads(clock, [answer(200, { gedi: 'g' })], 10).read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: subscription });
    stop();
    // Learning from one effect of 1 s: the first read at 0.95 of it after the identification was seen, 3.95 s after the upload.
    expect(waits).toEqual([expect.objectContaining({ transition: 'subscription', consistentAfterMs: 3_950, attempts: 1 })]);
    expect(history.firstLookMs('create'), 'the run learned a time after the sighting, not after the upload').toBeLessThan(1_000);
  });

  it('reads first for an effect that follows another one, not awaited, at that effect\'s first look and then its own after it', async () => {
    const clock = fakeClock();
    const history = historyOf(1_000, 1_000, 1_000);
    for (const ms of [2_000, 2_000, 2_000]) history.record('identification', ms);
    for (const ms of [1_500, 1_500, 1_500]) history.record('subscription (after the effect it follows)', ms);
    const subscription = { name: 'subscription' as const, since: clock.now(), follows: 'identification' as const };
    await eventually('subscribed', reads(clock, [answer(200, { gedi: 'g' })]).read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history, transition: subscription });
    expect(clock.sleeps, 'at 3.5 s: not at the first look of every transition\'s times').toEqual([3_500]);
  });

  it("takes an answer read for another wait that shows its state as its next attempt, at once, rather than reading at its next planned read", async () => {
    // A clock whose sleeps end only when told: the wait sleeps until the first look, 3 s away.
    let now = 0;
    const sleeps: number[] = [];
    const clock = { now: () => now, sleep: (ms: number) => (sleeps.push(ms), new Promise<void>(() => undefined)), sleeps, advance: (ms: number) => void (now += ms) };
    const hearing = new Set<(answer: ApiResponse) => void>();
    const othersReads = (heard: (answer: ApiResponse) => void) => (hearing.add(heard), () => hearing.delete(heard));
    const shown = answer(200, { gedi: 'g1' });
    const { read, count } = reads(clock, [shown], 0);
    const waits: WaitAttempts[] = [];
    const stop = onWait((wait) => waits.push(wait));
    const waiting = eventually('person g1 to be listed', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history: historyOf(1_000, 2_000, 3_000, 4_000, 5_000), transition: { name: 'create', since: 0 }, othersReads });
    await vi.waitFor(() => expect(sleeps).toEqual([3_000]));
    now = 400;
    for (const heard of hearing) heard(answer(404));
    await new Promise((settled) => setImmediate(settled));
    expect(count(), 'an answer that does not show its state leaves it asleep').toBe(0);
    for (const heard of hearing) heard(shown);
    const result = await waiting;
    stop();
    expect([result.attempts, count(), result.response], 'that answer is its attempt: no read of its own').toEqual([1, 0, shown]);
    expect(hearing.size, 'it stops listening when it ends').toBe(0);
    expect(waits).toEqual([expect.objectContaining({ consistentAfterMs: 400, attempts: 1 })]);
  });

  it('counts a wait under way as an effect not seen by its last read, but not for its own next read', () => {
    const history = historyOf(1_000, 2_000, 3_000, 4_000, 5_000);
    expect(history.firstLookMs('create'), 'nothing under way').toBe(3_000);
    const other = {};
    history.notYet(other, 'create', 6_000);
    // One of six not seen by 6 s: its weight goes to nothing seen, so the median moves later.
    expect(history.firstLookMs('create')).toBe(3_500);
    expect(history.firstLookMs('create', other), 'its own miss does not push its next read').toBe(3_000);
    history.settled(other);
    expect(history.firstLookMs('create')).toBe(3_000);
  });
});

describe('pollDelay', () => {
  const plan = { sinceWriteMs: 1_000, firstRead: false, random: 0.5 };

  it('with nothing learned, reads at once and then about 30% of the time waited apart, between 50 ms and 2 s', () => {
    expect(pollDelay({ ...plan, firstRead: true })).toBe(0);
    expect(pollDelay({ ...plan, sinceWriteMs: 0 })).toBe(50);
    expect(pollDelay(plan)).toBe(300);
    expect(pollDelay({ ...plan, sinceWriteMs: 60_000 })).toBe(2_000);
  });

  it('with a first look learned, waits for it, then reads a share of the time since the write apart', () => {
    expect(pollDelay({ ...plan, firstRead: true, sinceWriteMs: 400, firstLookMs: 2_000 })).toBe(1_600);
    expect(pollDelay({ ...plan, firstRead: true, sinceWriteMs: 2_500, firstLookMs: 2_000 })).toBe(0);
    expect(pollDelay({ ...plan, sinceWriteMs: 2_500, firstLookMs: 2_000 })).toBe(500);
  });

  it('after a read before the first look (a scout\'s, or one the jitter brought forward), reads next at the first look at the earliest', () => {
    expect(pollDelay({ ...plan, sinceWriteMs: 300, firstLookMs: 2_000 })).toBe(1_700);
    expect(pollDelay({ ...plan, sinceWriteMs: 1_900, firstLookMs: 2_000 })).toBe(380);
  });

  it('steps wider while the first look is learned from only a few effects', () => {
    expect(pollDelay({ ...plan, sinceWriteMs: 2_500, firstLookMs: 2_000, learning: true })).toBe(1_125);
  });

  it('jitters by at most 20%, keeps its bounds and a watch\'s minimum', () => {
    expect(pollDelay({ ...plan, random: 0 })).toBe(240);
    expect(pollDelay({ ...plan, random: 0.999 })).toBeLessThanOrEqual(360);
    expect(pollDelay({ ...plan, sinceWriteMs: 10, random: 0 })).toBe(50);
    expect(pollDelay({ ...plan, sinceWriteMs: 60_000, random: 0.999 })).toBe(2_000);
    expect(pollDelay({ ...plan, minIntervalMs: 5_000 })).toBe(5_000);
  });
});

describe('TimesEstimate', () => {
  const exact = (...times: number[]) => times.map((ms) => ({ after: ms, by: ms }));
  const notSeenBy = (...times: number[]) => times.map((ms) => ({ after: ms, by: Infinity }));

  it('interpolates between the times seen, each at the middle of its weight', () => {
    const estimate = new TimesEstimate(exact(3_000, 1_000, 2_000));
    expect([0.1, 0.3, 0.5, 0.9].map((q) => estimate.quantile(q))).toEqual([1_000, 1_400, 2_000, 3_000]);
    // Each weighs a third: 1 s stands at 1/6, 2 s at 1/2, 3 s at 5/6.
    expect([1 / 6, 1 / 3, 5 / 6].map((q) => estimate.quantile(q))).toEqual([1_000, 1_500, 3_000]);
    expect(new TimesEstimate([]).quantile(0.3)).toBeUndefined();
  });

  it('hands the weight of an effect not seen yet to the times above it (Kaplan-Meier)', () => {
    // Two of four not seen by 1.5 s: their weight goes to 3 s, the one time seen above them, which then weighs 3/4.
    const estimate = new TimesEstimate([...exact(1_000, 3_000), ...notSeenBy(1_500, 1_500)]);
    // 1 s weighs 1/4 and stands at 1/8; 3 s stands at 1/4 + 3/8.
    expect([estimate.quantile(0.125), estimate.quantile(0.25)]).toEqual([1_000, 1_500]);
    expect([new TimesEstimate(exact(1_000, 3_000)).quantile(0.5), estimate.quantile(0.5)]).toEqual([2_000, 2_500]);
    expect(estimate.quantile(0.7)).toBe(3_000);
  });

  it('answers the latest time known when effects not seen yet hold the quantile beyond every time seen', () => {
    const estimate = new TimesEstimate([...exact(1_000), ...notSeenBy(2_000, 2_500)]);
    expect([estimate.quantile(0.3), estimate.quantile(0.5)]).toEqual([1_000, 2_500]);
  });

  it('spreads a time known as an interval evenly over it where no other time says more', () => {
    const estimate = new TimesEstimate([{ after: 1_000, by: 2_000 }]);
    expect([0, 0.25, 1].map((q) => estimate.quantile(q))).toEqual([1_000, 1_250, 2_000]);
  });

  it('hands the weight of an effect seen by a first read to the times found below that read, in their proportions, as they come (Turnbull)', () => {
    // Seen by 2 s, with nothing else known: anywhere in 0 to 2 s.
    expect(new TimesEstimate([{ after: 0, by: 2_000 }]).quantile(0.5)).toBe(1_000);
    // Then effects seen at 1 s once and at 1.9 s twice: it goes with them, one third to 1 s, two thirds to 1.9 s,
    // not to where the one time known when it was seen (1 s) would have put it for good.
    const estimate = new TimesEstimate([...exact(1_000), { after: 0, by: 2_000 }, ...exact(1_900, 1_900)]);
    // 1 s weighs 1/3 and stands at 1/6; 1.9 s stands at 1/3 + 1/3.
    expect([estimate.quantile(1 / 6), estimate.quantile(0.25)]).toEqual([1_000, 1_150]);
    expect(estimate.quantile(0.5)).toBe(1_600);
  });
});

describe('ConsistencyHistory', () => {
  it('times an effect that follows another one, not awaited, from the write: that effect\'s first look and then its own after it, until it has times of its own', () => {
    const history = new ConsistencyHistory();
    for (const ms of [1_000, 1_000, 1_000]) history.record('create', ms);
    expect(new ConsistencyHistory().firstLookAfterMs('subscription', 'identification'), 'nothing seen: no first look').toBeUndefined();
    expect(history.firstLookAfterMs('subscription', 'identification'), 'neither learned yet: two effects of every transition\'s times').toBe(2 * history.firstLookMs('subscription')!);
    for (const ms of [2_000, 2_000, 2_000]) history.record('identification', ms);
    for (const ms of [1_500, 1_500, 1_500]) history.record('subscription (after the effect it follows)', ms);
    expect(history.firstLookAfterMs('subscription', 'identification')).toBe(3_500);
    for (const ms of [5_000, 5_000, 5_000]) history.record('subscription', ms);
    expect(history.firstLookAfterMs('subscription', 'identification'), 'its own times').toBe(5_000);
  });

  it('learns nothing before an effect was seen, then from every transition, and per transition once it has a few times of its own', () => {
    const history = new ConsistencyHistory();
    expect(history.firstLookMs('create')).toBeUndefined();
    for (const ms of [1_000, 2_000, 3_000]) history.record('create', ms);
    const ofCreates = new TimesEstimate([1_000, 2_000, 3_000].map((ms) => ({ after: ms, by: ms }))).quantile(POLLING.firstLookQuantile);
    expect(history.firstLookMs('update')).toBe(ofCreates);
    history.record('subscription', 6_000);
    expect(history.firstLookMs('subscription'), 'one time of its own says little').toBe(new TimesEstimate([1_000, 2_000, 3_000, 6_000].map((ms) => ({ after: ms, by: ms }))).quantile(POLLING.firstLookQuantile));
    for (const ms of [6_000, 6_000]) history.record('subscription', ms);
    expect(history.firstLookMs('subscription')).toBe(6_000);
    expect(history.firstLookMs('create')).toBe(ofCreates);
    expect([history.learnedFrom('create'), history.learnedFrom('update')]).toEqual([POLLING.ownFrom, 6]);
  });

  it('starts from what an earlier run learned, as if its waits had been the first: no wait scouts, and this run\'s times replace them as they come', () => {
    const history = new ConsistencyHistory();
    history.startFrom({ create: [1_000, 2_000, 3_000].map((ms) => ({ after: ms, by: ms })) });
    expect(history.firstLookMs('create')).toBe(new TimesEstimate([1_000, 2_000, 3_000].map((ms) => ({ after: ms, by: ms }))).quantile(POLLING.firstLookQuantile));
    expect(history.learnedFrom('create')).toBe(3);
    for (let i = 0; i < POLLING.historySize; i++) history.record('create', 5_000);
    expect(history.learned()).toEqual({ create: Array.from({ length: POLLING.historySize }, () => ({ after: 5_000, by: 5_000 })) });
  });

  it('brings the first look earlier while its first reads see their effects much more often than it plans, by as much as the excess', () => {
    const history = historyOf(2_000, 2_000, 2_000);
    const planned = history.firstLookMs('create')!;
    for (let i = 0; i < POLLING.firstReadsFrom - 1; i++) history.firstRead('create', true);
    expect(history.firstLookMs('create'), 'too few first reads to say').toBe(planned);
    history.firstRead('create', true);
    const excess = 1 - POLLING.firstLookQuantile - POLLING.firstReadHitsMargin;
    expect(history.firstLookMs('create')).toBe(Math.round(planned * (1 - excess)));
    for (let i = 0; i < POLLING.firstReadsKept; i++) history.firstRead('create', i % 5 < 2);
    expect(history.firstLookMs('create'), 'two in five: as planned').toBe(planned);
  });

  it('counts the first reads aimed at the first look, not a scout\'s nor one of a write older than it', async () => {
    const clock = fakeClock();
    const history = historyOf(1_000, 1_000, 1_000);
    const firstReads = vi.spyOn(history, 'firstRead');
    const { read } = reads(clock, [answer(200, { gedi: 'g' })], 10);
    await eventually('aimed', read, found, { timeoutMs: 5_000, clock, random: () => 0.5, history, transition: { name: 'create', since: clock.now() } });
    await eventually('written long ago', read, found, { timeoutMs: 5_000, clock, random: () => 0.5, history, transition: { name: 'create', since: clock.now() - 5_000 } });
    await eventually('scout', read, found, { timeoutMs: 5_000, clock, random: () => 0.5, history: historyOf(), transition: { name: 'create', since: clock.now() } });
    expect(firstReads.mock.calls).toEqual([['create', true]]);
  });

  it('keeps the recent times of a transition only', () => {
    const history = new ConsistencyHistory();
    for (let i = 0; i < POLLING.historySize; i++) history.record('create', 5_000);
    for (let i = 0; i < POLLING.historySize; i++) history.record('create', 1_000);
    expect(history.firstLookMs('create')).toBe(1_000);
  });

  it('lets one wait at a time scout, joined by another each time the scouting has lasted twice as long from 0.8 s on', () => {
    const history = new ConsistencyHistory();
    expect([history.claimScout(0), history.claimScout(10)]).toEqual([true, false]);
    history.releaseScout();
    expect(history.claimScout(20)).toBe(true);
    expect([799, 800, 900, 1_600, 3_199, 3_200].map((ms) => history.claimScout(ms))).toEqual([false, true, false, true, false, true]);
  });

  it('shares what one worker learns with every history joined to the same channel', async () => {
    const channel = `eventually-test-${process.pid}-${Date.now()}`;
    const [learner, other] = [ConsistencyHistory.shared(channel), ConsistencyHistory.shared(channel)];
    learner.record('create', 1_500);
    expect(learner.firstLookMs('create')).toBe(1_500);
    await vi.waitFor(() => expect(other.firstLookMs('create')).toBe(1_500));
  });
});
