// The simulated clock moves only when nothing can run: to the earliest sleep, never while a request handed to the
// in-process simulator is being answered (unless the simulator itself sleeps on it, as its latency does), and at no
// ratio to real time. The suite's client reaches the simulator through it unchanged: pace, timeouts and retries.
import { describe, expect, it } from 'vitest';
import { buildSimulator } from '../../simulator/build.js';
import { ApiClient } from '../../support/transport/http.js';
import { SimulatedClock } from '../../support/transport/clock.js';
import { InProcessDispatcher } from '../../support/transport/proxy-routes.js';

const TOKEN_PATH = '/sandbox/v1/token.oauth2';
const BASIC = `Basic ${Buffer.from('contract-client:contract-secret').toString('base64')}`;

/** A client of a simulator built on `clock`, its requests handed over in process. */
function simulated(
  clock: SimulatedClock,
  options: Parameters<typeof buildSimulator>[0] = {},
  requestTimeoutMs = 10_000,
) {
  const simulator = buildSimulator({ ...options, clock: clock.forSimulator(), backgroundRecords: 0 });
  const dispatcher = new InProcessDispatcher(simulator.app, clock);
  const client = new ApiClient({ baseUrl: 'http://simulator.in-process', clock, dispatcher, requestTimeoutMs });
  return { simulator, client };
}

const tokenRequest = (client: ApiClient) =>
  client.request('POST', TOKEN_PATH, {
    form: { grant_type: 'client_credentials', scope: 'bci' },
    auth: { kind: 'raw', authorization: BASIC },
    token: true,
  });

describe('the simulated clock', () => {
  it('wakes sleeps in the order of their ends, reading each end, and passes an hour in under a second', async () => {
    const clock = new SimulatedClock();
    const start = clock.now();
    const woke: [string, number][] = [];
    const realStart = performance.now();
    await Promise.all(
      [
        ['hour', 3_600_000],
        ['second', 1_000],
        ['minute', 60_000],
      ].map(async ([name, ms]) => {
        await clock.sleep(ms as number);
        woke.push([name as string, clock.now() - start]);
      }),
    );
    expect(woke).toEqual([
      ['second', 1_000],
      ['minute', 60_000],
      ['hour', 3_600_000],
    ]);
    expect(performance.now() - realStart, 'real milliseconds for a simulated hour').toBeLessThan(1_000);
  });

  it('stands still while work holds it, and moves on once that work ends', async () => {
    const clock = new SimulatedClock();
    const start = clock.now();
    const work = Promise.withResolvers<void>();
    const done = clock.hold();
    const slept = clock.sleep(1_000).then(() => clock.now() - start);
    // Real time passes (a socket's answer would take as long) while the work holds the clock.
    setTimeout(() => work.resolve(), 50);
    await work.promise;
    expect(clock.now(), 'no time while the work held the clock').toBe(start);
    const stillAsleep = await Promise.race([slept.then(() => false), Promise.resolve(true)]);
    expect(stillAsleep, 'the sleep still waits').toBe(true);
    done();
    await expect(slept).resolves.toBe(1_000);
  });

  it('lets time pass while the work that holds it is the simulator sleeping on it', async () => {
    const clock = new SimulatedClock();
    const start = clock.now();
    const done = clock.hold();
    await clock.forSimulator().sleep(5_000);
    expect(clock.now() - start).toBe(5_000);
    done();
  });

  it('forgets a withdrawn sleep, which then draws no time on', async () => {
    const clock = new SimulatedClock();
    const start = clock.now();
    const withdrawn = new AbortController();
    const long = clock.sleep(60_000, withdrawn.signal);
    withdrawn.abort();
    await long;
    await clock.sleep(10);
    expect(clock.now() - start).toBe(10);
    // Forgotten, not only woken: idle turns later, time has not moved on to where it would have ended.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(clock.now() - start, 'no sleep left to move time to').toBe(10);
  });
});

describe('the in-process dispatcher', () => {
  it("answers the suite's client from the simulator, its latency taking simulated time", async () => {
    const clock = new SimulatedClock();
    const { simulator, client } = simulated(clock, { latencyMs: 1_500 });
    const response = await tokenRequest(client);
    expect(response.status).toBe(200);
    expect(response.exchanges[0]!.durationMs).toBe(1_500);
    expect(simulator.state.tokens.issued).toBe(1);
    await simulator.app.close();
  });

  it("times a request out on the simulated clock when the simulator holds it past the client's timeout", async () => {
    const clock = new SimulatedClock();
    const { simulator, client } = simulated(clock, { latencyMs: 30_000 }, 2_000);
    const failed = await tokenRequest(client).catch((error: unknown) => error as Error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/did not answer \(timeout\)/);
    await simulator.app.close();
  });

  it('carries the host the client addressed, from which the simulator builds its links', async () => {
    const clock = new SimulatedClock();
    const { simulator } = simulated(clock);
    const dispatcher = new InProcessDispatcher(simulator.app, clock);
    const client = new ApiClient({ baseUrl: 'http://sandbox.example:8080', clock, dispatcher });
    const response = await client.request('GET', '/no/such/route');
    expect(response.status).toBe(404);
    expect(response.url).toBe('http://sandbox.example:8080/no/such/route');
    await simulator.app.close();
  });
});
