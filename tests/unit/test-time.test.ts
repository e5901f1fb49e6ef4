// What a test's requests spent, and the test that runs out of time while the target's pace held its
// requests back: filed as "Target throttled" just before vitest's own timeout, never a broken rule.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publishExchange, type HttpExchange } from '../../support/transport/exchanges.js';
import { attributeToRule } from '../../support/evidence/failures.js';
import { countTestSpending, spendTestTime, TestOutpacedError } from '../../support/evidence/test-time.js';
import { joinedPattern } from '../patterns.js';

const exchange = (pacedMs: number, status = 200, responseHeaders: Record<string, string> = {}): HttpExchange => ({
  method: 'GET',
  url: 'http://sandbox.test/consumer-intelligence/v3/consumers?page=7',
  status,
  durationMs: 50,
  pacedMs,
  attempt: 1,
  requestHeaders: {},
  responseHeaders,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Time runs on vitest's fake timers: each test moves it on as far as its story needs.
describe('spendTestTime', () => {
  let stop: (() => void) | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  it(
    "fails a test, before vitest would, when the run's requests waited for the pace longer than they took to be " +
      'answered',
    async () => {
      stop = countTestSpending();
      // vitest's timeout 1.3 s after the start: the test fails at 0.3 s.
      const both = Promise.all([
        spendTestTime(Date.now(), 1_300, async () => {
          publishExchange(exchange(500));
          publishExchange(exchange(300, 429, { 'retry-after': '1' }));
          await sleep(5_000);
        }).catch((failure: unknown) => failure),
        // Another test's requests, while the first ran.
        spendTestTime(Date.now(), 60_000, async () => publishExchange(exchange(900))),
      ]);
      await vi.advanceTimersByTimeAsync(5_000);
      const [error] = await both;
      expect(error).toBeInstanceOf(TestOutpacedError);
      expect((error as TestOutpacedError).spent).toEqual({
        own: { requests: 2, pacedMs: 800, answeringMs: 100, throttled: 1 },
        whileItRan: { requests: 3, pacedMs: 1_700, answeringMs: 150, throttled: 1 },
      });
      expect((error as Error).message).toMatch(
        joinedPattern(
          /^Target throttled: the test's 1\.3 s ran out .*3 request\(s\) waited 1\.7 s in all .*its own 2 /,
          /request\(s\) waited 0\.8 s.*CONTRACT_TEST_TIMEOUT_MS, now 1300/,
        ),
      );
      expect(attributeToRule(error, 'transition.delete')).toBe(error);
      expect((error as Error).message).not.toMatch(/Broken rule/);
    },
  );

  it('leaves to vitest a test whose own requests never waited, however long others did', async () => {
    stop = countTestSpending();
    const both = Promise.all([
      // Its 0.1 s before vitest's timeout pass with none of its own requests held: it goes on, and ends as it would.
      spendTestTime(Date.now(), 1_100, async () => {
        publishExchange(exchange(0));
        await sleep(300);
        return 'ended';
      }),
      spendTestTime(Date.now(), 60_000, async () => {
        await sleep(50);
        publishExchange(exchange(5_000));
      }),
    ]);
    await vi.advanceTimersByTimeAsync(300);
    const [result] = await both;
    expect(result).toBe('ended');
  });

  it('leaves to vitest a test whose time went to answers more than to the pace', async () => {
    stop = countTestSpending();
    const ended = spendTestTime(Date.now(), 1_100, async () => {
      publishExchange({ ...exchange(40), durationMs: 2_000 });
      await sleep(300);
      return 'ended';
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(await ended).toBe('ended');
  });
});
