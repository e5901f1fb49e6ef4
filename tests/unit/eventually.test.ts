import { describe, expect, it, vi } from 'vitest';
import { ConsistencyHistory, NotConsistentError, WaitRejectedError, eventually, onWait, pollInterval, watch, type WaitAttempts } from '../../support/readings/eventually.js';
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

/** A history of its own for each wait (the default is shared by the process), seeded with earlier waits' times. */
function historyOf(...consistentAfterMs: number[]): ConsistencyHistory {
  const history = new ConsistencyHistory();
  for (const ms of consistentAfterMs) history.record(ms);
  return history;
}

describe('watch', () => {
  const changed = (response: ApiResponse) => (response.body as { familyName?: string }).familyName === 'Other';

  it('reads for the whole window and answers undefined when the state never came, a quiet outcome rather than a timeout', async () => {
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
    expect(count()).toBeGreaterThan(1);
    expect(seen).toEqual([expect.objectContaining({ what: 'person g1 to change', outcome: 'quiet', attempts: count() })]);
  });

  it('answers the first response that shows the state', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { familyName: 'Own' }), answer(200, { familyName: 'Other' })], 50);
    const result = await watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock, random: () => 0.5, history: historyOf() });
    expect(result).toMatchObject({ attempts: 2, response: { body: { familyName: 'Other' } } });
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

  it('once earlier waits have seen consistency, re-reads first at half their typical time, then every quarter of it', async () => {
    const clock = fakeClock();
    const history = historyOf(2_000);
    const { read } = reads(clock, [answer(404), answer(404), answer(404), answer(200, { gedi: 'g1' })], 0);
    const result = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock, random: () => 0.5, history });
    expect(clock.sleeps).toEqual([1_000, 500, 500]);
    expect(result.attempts).toBe(4);
  });

  it('learns from waits that had to re-read, when their successful read was sent', async () => {
    const clock = fakeClock();
    const history = historyOf();
    await eventually('at once', reads(clock, [answer(200, { gedi: 'g' })]).read, found, { timeoutMs: 1_000, clock, history });
    expect(history.typicalMs(), 'a wait satisfied by its first read says nothing about the delay').toBeUndefined();
    await eventually('later', reads(clock, [answer(404), answer(200, { gedi: 'g' })], 10).read, found, { timeoutMs: 1_000, clock, random: () => 0.5, history });
    expect(history.typicalMs()).toBe(60); // first read 10 ms, then the 50 ms minimum interval
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
    // Reads sent at 0, 60 and 120 ms of the wait (10 ms each, then the 50 ms minimum interval), 100 ms after the write.
    expect(waits).toEqual([expect.objectContaining({ transition: 'create', notYetAfterMs: 160, consistentAfterMs: 220, notYetStatuses: [404, 404] })]);
  });
});

describe('pollInterval', () => {
  it('with no history, is about 30% of the time waited, between 50 ms and 2 s', () => {
    expect(pollInterval(0, 0.5)).toBe(50);
    expect(pollInterval(1_000, 0.5)).toBe(300);
    expect(pollInterval(60_000, 0.5)).toBe(2_000);
  });

  it('jitters by at most 20% and stays within the bounds', () => {
    expect(pollInterval(1_000, 0)).toBe(240);
    expect(pollInterval(1_000, 0.999)).toBeLessThanOrEqual(360);
    expect(pollInterval(1_000, 0.999)).toBeGreaterThan(355);
    expect(pollInterval(10, 0)).toBe(50);
    expect(pollInterval(60_000, 0.999)).toBe(2_000);
  });
});

describe('pollInterval with a typical time to consistency', () => {
  it('first jumps to half the typical time, however long that is', () => {
    expect(pollInterval(0, 0.5, 2_000)).toBe(1_000);
    expect(pollInterval(400, 0.5, 2_000)).toBe(600);
    expect(pollInterval(0, 0.5, 10_000)).toBe(5_000);
    expect(pollInterval(990, 0.5, 2_000)).toBe(50);
  });

  it('then re-reads every quarter of the typical time, or of the time waited once longer, up to 2 s', () => {
    expect(pollInterval(1_000, 0.5, 2_000)).toBe(500);
    expect(pollInterval(6_000, 0.5, 2_000)).toBe(1_500);
    expect(pollInterval(60_000, 0.5, 2_000)).toBe(2_000);
  });

  it('jitters by at most 20%', () => {
    expect(pollInterval(0, 0, 2_000)).toBe(800);
    expect(pollInterval(1_000, 0, 2_000)).toBe(400);
    expect(pollInterval(1_000, 0.999, 2_000)).toBeLessThanOrEqual(600);
  });
});

describe('ConsistencyHistory', () => {
  it('takes the median of the recent waits, so one slow effect does not move it', () => {
    expect(historyOf(1_000, 30_000, 2_000).typicalMs()).toBe(2_000);
    expect(historyOf(1_000, 3_000).typicalMs()).toBe(2_000);
  });

  it('forgets waits older than the last 16', () => {
    const history = historyOf(...Array.from({ length: 16 }, () => 5_000));
    for (let i = 0; i < 16; i++) history.record(1_000);
    expect(history.typicalMs()).toBe(1_000);
  });

  it('shares what one worker learns with every history joined to the same channel', async () => {
    const channel = `eventually-test-${process.pid}-${Date.now()}`;
    const [learner, other] = [ConsistencyHistory.shared(channel), ConsistencyHistory.shared(channel)];
    learner.record(1_500);
    expect(learner.typicalMs()).toBe(1_500);
    await vi.waitFor(() => expect(other.typicalMs()).toBe(1_500));
  });
});
