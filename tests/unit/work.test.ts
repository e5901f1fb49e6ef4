import { expect, it } from 'vitest';
import { ApiClient, NotSentError, testWork } from '../../support/transport/http.js';
import { Pace } from '../../support/transport/pace.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';

const listen = serversClosedAfterEach();

/** What a promise settled with: its value, or what it threw. */
const settled = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => value,
    (error: unknown) => error,
  );

it(
  'sends nothing more for a test whose body failed while another branch of it still polled, ' + 'and says why',
  async () => {
    const server = await listen((_request, response) => sendJson(response, 404, {}));
    const api = new ApiClient({ baseUrl: server.url });
    const pollUntilFound = async (): Promise<never> => {
      for (;;) await api.request('GET', '/persons/g-1');
    };
    // The other branch fails once the first read was answered: a broken rule, say.
    const breakRule = async () => {
      await expect.poll(() => server.received.length).toBeGreaterThan(0);
      throw new Error('the rule was broken');
    };
    let polling!: Promise<never>;
    await expect(
      testWork(new AbortController().signal, () => Promise.all([(polling = pollUntilFound()), breakRule()])),
    ).rejects.toThrow('the rule was broken');
    const stopped = await settled(polling);
    expect(stopped).toBeInstanceOf(NotSentError);
    expect((stopped as Error).message).toBe('GET /persons/g-1 not sent: the test it was for had ended');
    const sent = server.received.length;
    expect(
      await api.request('GET', '/persons/g-1').then((answer) => answer.status),
      'outside the test (its cleanup): sent',
    ).toBe(404);
    expect(server.received).toHaveLength(sent + 1);
  },
);

it('sends nothing more for a test vitest cancelled (its timeout), naming the cause', async () => {
  const server = await listen((_request, response) => sendJson(response, 200, {}));
  const api = new ApiClient({ baseUrl: server.url });
  const cancelled = new AbortController();
  const test = testWork(cancelled.signal, async () => {
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
  const api = new ApiClient({ baseUrl: server.url });
  const cancelled = new AbortController();
  cancelled.abort(new Error('Bailed out'));
  await expect(testWork(cancelled.signal, () => api.request('GET', '/first'))).rejects.toThrow(
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
  const api = new ApiClient({ baseUrl: server.url, clock, pace: new Pace(clock, 1) });
  const test = testWork(cancelled.signal, async () => {
    await api.request('GET', '/first');
    await api.request('GET', '/second');
  });
  await expect(test).rejects.toThrow(NotSentError);
  expect(server.received.map((request) => request.url)).toEqual(['/first']);
});
