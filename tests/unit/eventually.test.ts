import { describe, expect, it } from 'vitest';
import { MessageHolderTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import {
  NotConsistentError,
  POLLING,
  WaitRejectedError,
  eventually,
  nextReadIn,
  onWait,
  watch,
  type WaitAttempts,
} from '../../support/readings/eventually.js';
import type { ApiResponse } from '../../support/transport/http.js';
import { fakeClock } from './local-server.js';
import { joinedPattern } from '../patterns.js';

function answer(status: number, body: unknown = {}, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    ok: status >= 200 && status < 300,
    headers,
    body,
    text: JSON.stringify(body),
    url: 'http://target/persons/g1',
    exchanges: [],
    receivedAt: 0,
    sentAt: 0,
  };
}

/** A read that answers the given responses in turn (the last one repeats), each taking `costMs` of fake time. */
function reads(
  clock: ReturnType<typeof fakeClock>,
  responses: ApiResponse[],
  costMs = 10,
): { read: () => Promise<ApiResponse>; count: () => number } {
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

describe('watch', () => {
  const changed = (response: ApiResponse) => (response.body as { familyName?: string }).familyName === 'Other';

  it(
    'reads once, at the end of the window, and answers undefined when the state never came, a quiet outcome rather ' +
      'than a timeout',
    async () => {
      const clock = fakeClock();
      const { read, count } = reads(clock, [answer(200, { familyName: 'Own' })], 50);
      const seen: WaitAttempts[] = [];
      const stop = onWait((wait) => seen.push(wait));
      try {
        expect(await watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock })).toBeUndefined();
      } finally {
        stop();
      }
      expect(clock.now()).toBeGreaterThanOrEqual(2_000);
      // A state, once shown, stays: a read at the end sees what came at any time inside the window.
      expect(count()).toBe(1);
      expect(seen).toEqual([
        expect.objectContaining({ what: 'person g1 to change', outcome: 'quiet', attempts: count() }),
      ]);
    },
  );

  it('answers the response that shows the state', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { familyName: 'Other' })], 50);
    const result = await watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock });
    expect(result).toMatchObject({ attempts: 1, response: { body: { familyName: 'Other' } } });
  });

  it('still stops at a status that waiting cannot change', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(401)]);
    await expect(watch('person g1 to change', read, changed, { timeoutMs: 2_000, clock })).rejects.toBeInstanceOf(
      WaitRejectedError,
    );
  });
});

describe('eventually', () => {
  it('returns at once when the first read already holds', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { gedi: 'g1' })]);
    const result = await eventually('person g1 to be available', read, found, { timeoutMs: 1000, clock });
    expect(result).toMatchObject({ value: 'g1', attempts: 1, elapsedMs: 10 });
    expect(clock.sleeps).toEqual([]);
  });

  it(
    'repeats the read until the predicate holds, with intervals that grow with the time waited while nothing is ' +
      'known',
    async () => {
      const clock = fakeClock();
      const { read } = reads(
        clock,
        [answer(404), answer(404), answer(404), answer(404), answer(200, { gedi: 'g1' })],
        100,
      );
      const result = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock });
      expect(result.attempts).toBe(5);
      expect(result.response.status).toBe(200);
      // Each read (100 ms of it answering) half the time waited after the one before, at least 100 ms apart.
      expect(clock.sleeps).toEqual([100, 150, 275, 463]);
    },
  );

  it('accepts falsy values other than undefined, null and false', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(200, { count: 0 })]);
    const result = await eventually('a count', read, (response) => (response.body as { count: number }).count, {
      timeoutMs: 1000,
      clock,
    });
    expect(result.value).toBe(0);
  });

  it('waits at least as long as Retry-After asks', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(429, {}, { 'retry-after': '3' }), answer(200, { gedi: 'g1' })]);
    await eventually('person g1', read, found, { timeoutMs: 30_000, clock });
    expect(clock.sleeps).toEqual([3000]);
  });

  it.each([400, 401, 403])('fails at once on %i, naming what it waited for and the answer', async (status) => {
    const clock = fakeClock();
    const { read, count } = reads(clock, [answer(status, { error: 'denied', access_token: 'leaked-token-value' })]);
    const error = await eventually('person g1 to be available', read, found, { timeoutMs: 30_000, clock }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(WaitRejectedError);
    expect(count()).toBe(1);
    expect((error as Error).message).toContain('person g1 to be available');
    expect((error as Error).message).toContain(`${status} {"error":"denied","access_token":"[REDACTED]"}`);
  });

  it('times out with what it waited for, the elapsed time, the attempts and the last answer', async () => {
    const clock = fakeClock();
    const { read, count } = reads(clock, [answer(404, { error: 'not found', token: 'secret-token-value' })], 50);
    const error = await eventually('person g1 to be available', read, found, { timeoutMs: 5_000, clock }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(NotConsistentError);
    const notConsistent = error as NotConsistentError;
    expect(notConsistent.what).toBe('person g1 to be available');
    expect(notConsistent.attempts).toBe(count());
    expect(notConsistent.elapsedMs).toBeGreaterThanOrEqual(5_000);
    expect(notConsistent.elapsedMs).toBeLessThan(5_100);
    expect(notConsistent.lastResponse.body).toEqual({ error: 'not found', token: '[REDACTED]' });
    expect(notConsistent.message).toMatch(
      joinedPattern(
        /^Not shown within 5(\.\d)? s: person g1 to be available; \d+ read\(s\) over 5(\.\d)? s; last answer 404 /,
        /\{"error":"not found","token":"\[REDACTED\]"\}$/,
      ),
    );
    // The interval grows with the wait, so a 5 s wait takes a handful of attempts, not a hundred.
    expect(count()).toBeLessThan(20);
  });

  // On a busy machine a read asked before the deadline can be answered after it: what decides is a read asked at
  // the deadline, so the verdict does not depend on how long answers take.
  it('is decided by a read asked at the deadline, not by a slow answer to one asked before it', async () => {
    const clock = fakeClock();
    const slow = reads(clock, [answer(404), answer(404), answer(200, { gedi: 'g1' })], 600);
    const result = await eventually('person g1 to be available', slow.read, found, { timeoutMs: 1_000, clock });
    expect(result).toMatchObject({ value: 'g1', attempts: 3 });

    const never = reads(clock, [answer(404)], 600);
    const error = await eventually('person g1 to be available', never.read, found, { timeoutMs: 1_000, clock }).catch(
      (caught: unknown) => caught,
    );
    expect(never.count(), 'the second read, asked at 900 ms, answered at 1.5 s; the third asked then').toBe(3);
    expect((error as Error).message).toMatch(
      /^Not shown within 1 s: person g1 to be available; 3 read\(s\) over 2.1 s/,
    );
  });

  it('names what the last answer showed of the awaited value, and where it looked, before its body', async () => {
    const clock = fakeClock();
    const record = { id: 'p1', country: 'SE', notes: 'x'.repeat(600), status: { deregistered: false } };
    const { read } = reads(clock, [answer(200, record)], 50);
    const shows = (response: ApiResponse) => ({
      holds: false,
      evidence: [],
      found: `$.status.deregistered = ${(response.body as typeof record).status.deregistered}`,
      looked: 'deregistered and isDeregistered',
    });
    const error = await eventually('person g1 to be marked deregistered', read, shows, {
      timeoutMs: 30_000,
      clock,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      joinedPattern(
        /^Not shown within 30(\.\d)? s: person g1 to be marked deregistered; \$\.status\.deregistered = false /,
        /\(\d+ read\(s\) over 30(\.\d)? s; looked at deregistered and isDeregistered\); /,
        /last answer 200 \{"id":"p1","country":"SE","notes":"x+…$/,
      ),
    );
  });

  it('returns the reading that held, as the caller passed it, and shows its evidence in the report once', async () => {
    const runtime = new MessageHolderTestRuntime();
    setGlobalTestRuntime(runtime);
    try {
      const clock = fakeClock();
      const { read } = reads(clock, [answer(200, { removed: false }), answer(200, { removed: true })], 50);
      const removed = (response: ApiResponse) => {
        const flag = (response.body as { removed: boolean }).removed;
        return {
          holds: flag,
          evidence: flag ? ['$.removed = true'] : [],
          found: `$.removed = ${flag}`,
          looked: 'removed',
        };
      };
      const { value } = await eventually('person g1 to be marked removed', read, removed, { timeoutMs: 30_000, clock });
      expect(value).toEqual({
        holds: true,
        evidence: ['$.removed = true'],
        found: '$.removed = true',
        looked: 'removed',
      });
      const evidence = runtime.messages().filter((message) => message.type === 'attachment_content');
      expect(evidence.map((message) => (message.data as { name: string }).name)).toEqual([
        'Evidence that ended the wait until person g1 to be marked removed',
      ]);
      expect(Buffer.from((evidence[0]!.data as { content: string }).content, 'base64').toString()).toBe(
        '$.removed = true',
      );
    } finally {
      delete (globalThis as Record<string, unknown>).allureTestRuntime;
    }
  });

  it.each([
    ['of a wait that reads at once', undefined],
    ['of a wait whose first look lies past the deadline', 'subscription-update' as const],
  ])('makes its last attempt at the deadline instead of sleeping past it, %s', async (_, transition) => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(404)], 0);
    await eventually('never', read, found, { timeoutMs: 700, clock, transition }).catch(() => undefined);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(700);
  });

  it(
    'tells wait listeners how many attempts each wait took and ' + 'what the reads that did not yet see it answered',
    async () => {
      const clock = fakeClock();
      const waits: WaitAttempts[] = [];
      const stop = onWait((wait) => waits.push(wait));
      await eventually('first', reads(clock, [answer(404), answer(200, { gedi: 'g' })]).read, found, {
        timeoutMs: 1_000,
        clock,
      });
      await eventually('second', reads(clock, [answer(403)]).read, found, { timeoutMs: 1_000, clock }).catch(
        () => undefined,
      );
      stop();
      expect(waits).toEqual([
        expect.objectContaining({
          what: 'first',
          outcome: 'consistent',
          attempts: 2,
          elapsedMs: 120,
          notYetStatuses: [404],
        }),
        expect.objectContaining({
          what: 'second',
          outcome: 'rejected',
          attempts: 1,
          elapsedMs: 10,
          notYetStatuses: [403],
        }),
      ]);
    },
  );
});

describe('a wait for a transition', () => {
  it('reads first after 1.5 s, then half the time waited apart', async () => {
    const clock = fakeClock();
    const { read } = reads(clock, [answer(404), answer(404), answer(200, { gedi: 'g1' })], 0);
    await eventually('the relative to be deceased', read, found, {
      timeoutMs: 30_000,
      clock,
      transition: 'relationship-death',
    });
    expect(clock.sleeps).toEqual([1_500, 750, 1_125]);
  });
});

describe('nextReadIn', () => {
  it('waits half the time waited, between 100 ms and 2 s', () => {
    expect(nextReadIn(60)).toBe(POLLING.minIntervalMs);
    expect(nextReadIn(1_500)).toBe(750);
    expect(nextReadIn(60_000)).toBe(POLLING.maxIntervalMs);
  });
});
