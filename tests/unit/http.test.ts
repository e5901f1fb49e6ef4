import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApiClient, TargetUnavailableError, type TokenSource } from '../../support/transport/http.js';
import {
  RETRY_POLICY,
  classifyFailure,
  isThrottled,
  parseRetryAfter,
  retryDecision,
} from '../../support/transport/retry.js';
import { fakeClock, sendJson, serversClosedAfterEach } from './local-server.js';
import { NOTHING_LISTENS } from '../network/nothing-listens.js';
import { observeExchanges, type HttpExchange } from '../../support/transport/exchanges.js';

describe('retryDecision', () => {
  const base = { method: 'GET', attempt: 1, elapsedMs: 0 };

  it.each([429, 502, 503, 504])('retries status %i', (status) => {
    expect(retryDecision(RETRY_POLICY, { ...base, status })).toEqual({
      retry: true,
      delayMs: RETRY_POLICY.baseDelayMs,
    });
  });

  it.each([200, 201, 400, 401, 403, 404, 409, 422, 500])('never retries status %i', (status) => {
    expect(retryDecision(RETRY_POLICY, { ...base, status })).toEqual({
      retry: false,
      reason: `status ${status} is not transient`,
    });
  });

  it.each(['refused', 'unresolved', 'timeout', 'reset'] as const)(
    'retries an idempotent request after a %s connection',
    (error) => {
      expect(retryDecision(RETRY_POLICY, { ...base, error }).retry).toBe(true);
    },
  );

  it('does not retry an unclassified failure', () => {
    expect(retryDecision(RETRY_POLICY, { ...base, error: 'other' })).toEqual({
      retry: false,
      reason: 'other is not transient',
    });
  });

  it('repeats a POST only when the request was certainly not processed', () => {
    const post = { ...base, method: 'post' };
    expect(retryDecision(RETRY_POLICY, { ...post, status: 429 }).retry).toBe(true);
    expect(retryDecision(RETRY_POLICY, { ...post, status: 503 }).retry).toBe(true);
    expect(retryDecision(RETRY_POLICY, { ...post, error: 'refused' }).retry).toBe(true);
    expect(retryDecision(RETRY_POLICY, { ...post, error: 'unresolved' }).retry).toBe(true);
    for (const outcome of [
      { status: 502 },
      { status: 504 },
      { error: 'timeout' as const },
      { error: 'reset' as const },
    ]) {
      const decision = retryDecision(RETRY_POLICY, { ...post, ...outcome });
      expect(decision).toMatchObject({ retry: false });
      expect(decision.retry === false && decision.reason).toMatch(/POST is not repeated .*may have processed it/);
    }
  });

  it('backs off exponentially up to the maximum, with jitter inside its bounds', () => {
    const delays = [1, 2, 3].map((attempt) =>
      retryDecision({ ...RETRY_POLICY, maxAttempts: 10 }, { ...base, attempt, status: 503 }),
    );
    expect(delays).toEqual([250, 500, 1000].map((delayMs) => ({ retry: true, delayMs })));
    const capped = retryDecision({ ...RETRY_POLICY, maxAttempts: 20 }, { ...base, attempt: 10, status: 503 });
    expect(capped).toEqual({ retry: true, delayMs: RETRY_POLICY.maxDelayMs });
    const low = retryDecision(RETRY_POLICY, { ...base, status: 503, random: 0 });
    const high = retryDecision(RETRY_POLICY, { ...base, status: 503, random: 0.999 });
    expect(low).toEqual({ retry: true, delayMs: 200 });
    expect(high.retry && high.delayMs).toBeGreaterThan(295);
    expect(high.retry && high.delayMs).toBeLessThanOrEqual(300);
  });

  it('honours Retry-After instead of its own backoff', () => {
    expect(retryDecision(RETRY_POLICY, { ...base, status: 429, retryAfterMs: 3000 })).toEqual({
      retry: true,
      delayMs: 3000,
    });
  });

  it('stops after the maximum number of attempts', () => {
    expect(retryDecision(RETRY_POLICY, { ...base, attempt: RETRY_POLICY.maxAttempts, status: 503 })).toEqual({
      retry: false,
      reason: `status 503 after ${RETRY_POLICY.maxAttempts} attempts`,
    });
  });

  it('stops when the wait would pass the deadline, and says a throttling answer was still coming', () => {
    const decision = retryDecision(RETRY_POLICY, { ...base, status: 429, retryAfterMs: 120_000, elapsedMs: 1_000 });
    expect(decision).toMatchObject({ retry: false, throttled: true });
    expect(decision.retry === false && decision.reason).toMatch(/deadline/);
    expect(
      retryDecision(RETRY_POLICY, { ...base, status: 502, elapsedMs: RETRY_POLICY.maxTotalMs }),
    ).not.toHaveProperty('throttled');
  });

  it('retries a throttled request until its deadline, whatever the attempt count', () => {
    for (const outcome of [{ status: 429 }, { status: 503, retryAfterMs: 1_000 }]) {
      expect(retryDecision(RETRY_POLICY, { ...base, ...outcome, attempt: 50, elapsedMs: 10_000 })).toMatchObject({
        retry: true,
      });
    }
    // A 503 that does not say when to come back is an outage: the attempt count still ends it.
    expect(retryDecision(RETRY_POLICY, { ...base, status: 503, attempt: RETRY_POLICY.maxAttempts })).toMatchObject({
      retry: false,
    });
  });

  it('tells throttling (429, 503 with Retry-After) from an outage', () => {
    expect([
      isThrottled(429, undefined),
      isThrottled(503, 1000),
      isThrottled(503, undefined),
      isThrottled(502, 1000),
    ]).toEqual([true, true, false, false]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates as milliseconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('classifyFailure', () => {
  it.each([
    [Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'refused'],
    [Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), 'refused'],
    [Object.assign(new Error('x'), { code: 'ENOTFOUND' }), 'unresolved'],
    [new DOMException('deadline', 'TimeoutError'), 'timeout'],
    [Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }), 'reset'],
    [Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } }), 'reset'],
    [new Error('bad certificate'), 'other'],
  ])('classifies %s as %s', (error, failure) => {
    expect(classifyFailure(error)).toBe(failure);
  });
});

describe('ApiClient', () => {
  const listen = serversClosedAfterEach();

  it('joins paths to the base URL (prefix kept), adds the query and parses JSON', async () => {
    const server = await listen((request, response) => sendJson(response, 200, { seen: request.url }));
    const api = new ApiClient({ baseUrl: `${server.url}/prefix/` });
    const response = await api.request<{ seen: string }>('get', '/persons/1', { query: { market: 'SE', q: 'a b' } });
    expect(response).toMatchObject({ status: 200, ok: true, body: { seen: '/prefix/persons/1?market=SE&q=a+b' } });
    expect(response.text).toBe('{"seen":"/prefix/persons/1?market=SE&q=a+b"}');
    expect(response.exchanges).toHaveLength(1);
    const absolute = await api.request('GET', `${server.url}/elsewhere`);
    expect(absolute.body).toEqual({ seen: '/elsewhere' });
  });

  it('sends JSON and form bodies with their content types, and keeps non-JSON text', async () => {
    const server = await listen((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`${request.headers['content-type']}|${request.body}`);
    });
    const api = new ApiClient({ baseUrl: server.url });
    const json = await api.request('PUT', '/p', { json: { id: 'x' } });
    expect(json.body).toBe('application/json|{"id":"x"}');
    const form = await api.request('POST', '/t', { form: { grant_type: 'client_credentials', scope: 'bci' } });
    expect(form.body).toBe('application/x-www-form-urlencoded|grant_type=client_credentials&scope=bci');
  });

  it('parses a JSON body even when the content type does not say so', async () => {
    const server = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('{"gedi":"g1"}');
    });
    expect((await new ApiClient({ baseUrl: server.url }).request('GET', '/')).body).toEqual({ gedi: 'g1' });
  });

  it('returns non-2xx answers instead of throwing', async () => {
    const server = await listen((_request, response) => sendJson(response, 404, { error: 'no such person' }));
    const response = await new ApiClient({ baseUrl: server.url }).request('GET', '/persons/unknown');
    expect(response).toMatchObject({ status: 404, ok: false, body: { error: 'no such person' } });
  });

  it('renews the bearer token once on a 401 and repeats the request once', async () => {
    const server = await listen((request, response) =>
      request.headers.authorization === 'Bearer fresh-token-value'
        ? sendJson(response, 200, { ok: true })
        : sendJson(response, 401, {}),
    );
    let token = 'stale-token-value';
    let renewals = 0;
    const tokens: TokenSource = {
      accessToken: async () => token,
      due: () => false,
      renew: async () => {
        renewals += 1;
        token = 'fresh-token-value';
        return token;
      },
    };
    const response = await new ApiClient({ baseUrl: server.url, auth: { kind: 'bearer', tokens } }).request('GET', '/');
    expect(response.status).toBe(200);
    expect(renewals).toBe(1);
    expect(response.exchanges.map((exchange) => [exchange.attempt, exchange.status])).toEqual([
      [1, 401],
      [2, 200],
    ]);
  });

  it('answers the second 401 without renewing again', async () => {
    const server = await listen((_request, response) => sendJson(response, 401, {}));
    let renewals = 0;
    const tokens: TokenSource = {
      accessToken: async () => 'token-value-long',
      due: () => false,
      renew: async () => `token-${++renewals}`,
    };
    const response = await new ApiClient({ baseUrl: server.url, auth: { kind: 'bearer', tokens } }).request('GET', '/');
    expect(response.status).toBe(401);
    expect(renewals).toBe(1);
    expect(server.received).toHaveLength(2);
  });

  it('sends Basic, raw and no authorization as asked', async () => {
    const server = await listen((request, response) =>
      sendJson(response, 200, { authorization: request.headers.authorization ?? null }),
    );
    const api = new ApiClient({
      baseUrl: server.url,
      auth: { kind: 'raw', authorization: `Basic ${Buffer.from('id:pw').toString('base64')}` },
    });
    expect((await api.request('GET', '/')).body).toEqual({
      authorization: `Basic ${Buffer.from('id:pw').toString('base64')}`,
    });
    expect(
      (await api.request('GET', '/', { auth: { kind: 'raw', authorization: 'Bearer not-a-token' } })).body,
    ).toEqual({ authorization: 'Bearer not-a-token' });
    expect((await api.request('GET', '/', { auth: { kind: 'none' } })).body).toEqual({ authorization: null });
  });

  it('retries a transient answer after the delay the server asks for, without really waiting', async () => {
    let calls = 0;
    const server = await listen((_request, response) =>
      ++calls < 3
        ? sendJson(response, 503, { busy: true }, { 'retry-after': '7' })
        : sendJson(response, 200, { done: true }),
    );
    const clock = fakeClock();
    const response = await new ApiClient({ baseUrl: server.url, clock }).request('GET', '/');
    expect(response.status).toBe(200);
    expect(clock.sleeps).toEqual([7000, 7000]);
    expect(response.exchanges.map((exchange) => exchange.status)).toEqual([503, 503, 200]);
    expect(response.receivedAt, 'the answer returned arrived after both waits, on the client clock').toBe(
      1_000_000 + 14_000,
    );
    // Each retry waited out a Retry-After: time the target's rate cost it, as a wait for the pace does.
    expect(response.exchanges.map((exchange) => exchange.pacedMs)).toEqual([0, 7000, 7000]);
  });

  it("counts no wait for the target's rate in a backoff after an answer that did not throttle", async () => {
    let calls = 0;
    const server = await listen((_request, response) =>
      ++calls < 2 ? sendJson(response, 502, {}) : sendJson(response, 200, {}),
    );
    const clock = fakeClock();
    const response = await new ApiClient({ baseUrl: server.url, clock }).request('GET', '/');
    expect(clock.sleeps).toHaveLength(1);
    expect(response.exchanges.map((exchange) => exchange.pacedMs)).toEqual([0, 0]);
  });

  it('returns the last transient answer when the retries run out', async () => {
    const server = await listen((_request, response) => sendJson(response, 502, {}));
    const clock = fakeClock();
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    onTestFinished(() => random.mockRestore());
    const response = await new ApiClient({ baseUrl: server.url, clock }).request('DELETE', '/');
    expect(response.status).toBe(502);
    expect(server.received).toHaveLength(RETRY_POLICY.maxAttempts);
    expect(clock.sleeps).toEqual([250, 500, 1000]);
  });

  it('never repeats a POST whose outcome is unknown after the deadline', async () => {
    // The server never answers, so no answer races the deadline; on a loaded machine the deadline may even pass
    // before the request arrives, and what is checked holds either way: it is sent once at most.
    const server = await listen(() => {});
    const error = await new ApiClient({ baseUrl: server.url, clock: fakeClock(), requestTimeoutMs: 250 })
      .request('POST', '/consumers', { json: [] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect(error).toMatchObject({ failure: 'timeout', attempts: 1 });
    expect((error as Error).message).toMatch(
      /^127\.0\.0\.1:\d+ did not answer \(timeout\) after 1 attempt\(s\): POST \/consumers/,
    );
    expect(server.received.length).toBeLessThanOrEqual(1);
  });

  it('names the host and the cause when nothing answers', async () => {
    const clock = fakeClock();
    const error = await new ApiClient({ baseUrl: NOTHING_LISTENS, clock })
      .request('POST', '/token')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect(error).toMatchObject({
      host: new URL(NOTHING_LISTENS).host,
      failure: 'refused',
      attempts: RETRY_POLICY.maxAttempts,
    });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(clock.sleeps).toHaveLength(RETRY_POLICY.maxAttempts - 1);
  });

  it(
    'publishes every attempt, redacted, to exchange observers, ' + 'with the operation and purpose the caller named',
    async () => {
      const server = await listen((_request, response) =>
        sendJson(response, 200, { access_token: 'issued-token-value', gedi: 'g' }),
      );
      const seen: HttpExchange[] = [];
      const stop = observeExchanges((exchange) => seen.push(exchange));
      const api = new ApiClient({
        baseUrl: server.url,
        auth: { kind: 'raw', authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' },
      });
      const response = await api.request('POST', '/token', {
        json: { client_secret: 'pw' },
        operation: 'token',
        purpose: 'Request token',
      });
      stop();
      await api.request('GET', '/');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        method: 'POST',
        url: `${server.url}/token`,
        status: 200,
        attempt: 1,
        requestHeaders: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
        requestBody: { client_secret: '[REDACTED]' },
        responseBody: { access_token: '[REDACTED]', gedi: 'g' },
        operation: 'token',
        purpose: 'Request token',
      });
      expect(seen[0]?.durationMs).toBeGreaterThanOrEqual(0);
      expect(response.body).toEqual({ access_token: 'issued-token-value', gedi: 'g' });
      expect(response.exchanges).toEqual(seen);
    },
  );
});
