import { describe, expect, it } from 'vitest';
import { redactText } from '../../support/transport/redact.js';
import { ApiClient, NotSentError, TargetThrottledError } from '../../support/transport/http.js';
import { RunTime, TestWork } from '../../support/evidence/test-time.js';
import { RETRY_POLICY } from '../../support/transport/retry.js';
import {
  TokenError,
  registerCredentials,
  TokenProvider,
  requestToken,
  type IssuedToken,
} from '../../support/run/tokens.js';
import { SECOND_CLIENT_VARIABLES } from '../../support/run/config.js';
import { fakeClock, sendJson, serversClosedAfterEach, type LocalServer } from './local-server.js';
import { NOTHING_LISTENS } from '../network/nothing-listens.js';
import { joinedPattern } from '../patterns.js';

const credentials = { clientId: 'client-one', clientSecret: 'client-secret-value' };
const basic = `Basic ${Buffer.from('client-one:client-secret-value').toString('base64')}`;

describe('requestToken', () => {
  const listen = serversClosedAfterEach();

  it('sends the documented client-credentials request and returns the issued token', async () => {
    const server = await listen((_request, response) =>
      sendJson(response, 200, { access_token: 'issued-access-token', token_type: 'Bearer', expires_in: 3600 }),
    );
    const clock = fakeClock();
    const { token, response } = await requestToken(`${server.url}/`, credentials, { clock });
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/sandbox/v1/token.oauth2',
      body: 'grant_type=client_credentials&scope=bci',
    });
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers.authorization).toBe(basic);
    expect(token).toEqual({
      accessToken: 'issued-access-token',
      tokenType: 'Bearer',
      issuedAt: clock.now(),
      expiresAt: clock.now() + 3_600_000,
    });
    expect(response.status).toBe(200);
  });

  it('registers the access token, the secret and the Basic credential for redaction', async () => {
    const server = await listen((_request, response) =>
      sendJson(response, 200, { access_token: 'another-access-token' }),
    );
    const { token } = await requestToken(server.url, credentials);
    expect(token.expiresAt).toBeUndefined();
    expect(redactText(`another-access-token client-secret-value ${basic.slice(6)}`)).toBe(
      '[REDACTED] [REDACTED] [REDACTED]',
    );
  });

  it.each([
    [401, 'rejected', /rejected .*CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET/],
    [400, 'rejected', /rejected/],
    [500, 'server', /failed with status 500/],
    [404, 'server', /Check CONTRACT_AUTH_URL/],
  ] as const)('reports status %i as %s, naming the auth URL and the fix', async (status, reason, message) => {
    const server = await listen((_request, response) => sendJson(response, status, { error: 'invalid_client' }));
    const error = await requestToken(server.url, credentials, { clock: fakeClock() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ reason, status });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`${server.url}/sandbox/v1/token.oauth2`);
    expect((error as Error).message).not.toContain(credentials.clientSecret);
  });

  it.each([
    ['the first client', undefined, ['CONTRACT_CLIENT_ID', 'CONTRACT_CLIENT_SECRET']],
    ['the second client', SECOND_CLIENT_VARIABLES, ['CONTRACT_SECOND_CLIENT_ID', 'CONTRACT_SECOND_CLIENT_SECRET']],
  ] as const)(
    'names the variables of %s when its credentials are rejected',
    async (_client, credentialVariables, variables) => {
      const server = await listen((_request, response) => sendJson(response, 401, { error: 'invalid_client' }));
      const error = (await requestToken(server.url, credentials, { clock: fakeClock(), credentialVariables }).catch(
        (caught: unknown) => caught,
      )) as TokenError;
      expect(error.variables).toEqual(variables);
      expect(error.message).toContain(`Check ${variables[0]} and ${variables[1]}`);
      expect(error.message).not.toContain(credentialVariables ? 'CONTRACT_CLIENT_ID' : 'CONTRACT_SECOND_CLIENT_ID');
    },
  );

  it.each([
    ['a server error', 500, 'server'],
    ['an answer without access_token', 200, 'malformed'],
  ] as const)('names the token service variables for %s', async (_case, status, reason) => {
    const server = await listen((_request, response) => sendJson(response, status, { token: 'x' }));
    const error = (await requestToken(server.url, credentials, {
      clock: fakeClock(),
      credentialVariables: SECOND_CLIENT_VARIABLES,
    }).catch((caught: unknown) => caught)) as TokenError;
    expect(error).toMatchObject({ reason, variables: ['CONTRACT_AUTH_URL', 'CONTRACT_BASE_URL'] });
    expect(error.message).toContain('CONTRACT_AUTH_URL');
  });

  it('names the token service variables when nothing answers', async () => {
    const error = (await requestToken(NOTHING_LISTENS, credentials, { clock: fakeClock() }).catch(
      (caught: unknown) => caught,
    )) as TokenError;
    expect(error).toMatchObject({ reason: 'unreachable', variables: ['CONTRACT_AUTH_URL', 'CONTRACT_BASE_URL'] });
    expect(error.message).toMatch(/Check CONTRACT_AUTH_URL/);
  });

  it('reports an answer without access_token as malformed', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, { token: 'x' }));
    await expect(requestToken(server.url, credentials)).rejects.toMatchObject({ reason: 'malformed' });
  });

  it(
    'reports a token service still answering 503 (without Retry-After) after the retries as unavailable (target ' +
      'unavailable), neither unreachable nor a configuration error',
    async () => {
      const status = 503;
      const server = await listen((_request, response) => sendJson(response, status, { error: 'try later' }));
      const error = await requestToken(server.url, credentials, { clock: fakeClock() }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ reason: 'unavailable', status });
      expect(server.received.length).toBeGreaterThan(1);
      expect((error as Error).message).toMatch(
        /^Token service unavailable \(target unavailable\): 127\.0\.0\.1:\d+ still answered/,
      );
    },
  );

  it.each([
    ['429', 429, {}],
    ['503 with Retry-After', 503, { 'retry-after': '2' }],
  ])(
    'reports a token service still answering %s at the deadline as throttled, with the setting to lower',
    async (_case, status, headers) => {
      const server = await listen((_request, response) => sendJson(response, status, { error: 'slow down' }, headers));
      const error = await requestToken(server.url, credentials, {
        clock: fakeClock(),
        deadlineMs: 20_000,
        maxRps: 3,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TargetThrottledError);
      expect(error).toMatchObject({ status });
      // Retried until the deadline, not for a fixed number of attempts.
      expect(server.received.length).toBeGreaterThan(RETRY_POLICY.maxAttempts);
      expect((error as Error).message).toMatch(
        joinedPattern(
          /^Target throttled: 127\.0\.0\.1:\d+ still answered \d+ to POST \/sandbox\/v1\/token\.oauth2 .*held to /,
          /\d+\.\d+ requests a second \(CONTRACT_MAX_RPS=3\).*Set CONTRACT_MAX_RPS below/,
        ),
      );
    },
  );

  it('reports a host that does not answer as unreachable', async () => {
    const error = await requestToken(NOTHING_LISTENS, credentials, { clock: fakeClock() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ reason: 'unreachable' });
    expect((error as Error).message).toMatch(/unreachable \(target unavailable\).*refused.*CONTRACT_AUTH_URL/);
  });
});

describe('TokenProvider', () => {
  const listen = serversClosedAfterEach();

  async function tokenServer(expiresIn = 600): Promise<LocalServer> {
    let issued = 0;
    return listen((_request, response) => {
      issued += 1;
      setTimeout(() => sendJson(response, 200, { access_token: `renewed-token-${issued}`, expires_in: expiresIn }), 20);
    });
  }

  const runToken = (clock: { now(): number }, lifetimeMs?: number): IssuedToken => ({
    accessToken: 'run-token-value',
    issuedAt: clock.now(),
    expiresAt: lifetimeMs === undefined ? undefined : clock.now() + lifetimeMs,
  });

  /** A provider on a fake clock with a run token of `lifetimeMs`, renewing from a server whose tokens last as long. */
  async function renewingProvider(lifetimeMs: number) {
    const server = await tokenServer(lifetimeMs / 1000);
    const clock = fakeClock();
    const provider = new TokenProvider(server.url, credentials, runToken(clock, lifetimeMs), { clock });
    return { server, clock, provider };
  }

  it('uses the token it was given without asking for another', async () => {
    const { server, provider } = await renewingProvider(600_000);
    expect(await provider.accessToken()).toBe('run-token-value');
    expect(server.received).toHaveLength(0);
  });

  it.each([600_000, 20_000, 5_000])(
    'renews a %i ms token once 80 %% of its lifetime has passed, not a fixed time ahead',
    async (lifetimeMs) => {
      const { server, clock, provider } = await renewingProvider(lifetimeMs);
      clock.advance(lifetimeMs * 0.8 - 1);
      expect(await provider.accessToken()).toBe('run-token-value');
      clock.advance(1);
      expect(await provider.accessToken()).toBe('renewed-token-1');
      expect(await provider.accessToken()).toBe('renewed-token-1');
      expect(server.received).toHaveLength(1);
    },
  );

  it('goes on with a renewal that a test began after that test ends: the other tests wait for it too', async () => {
    const { server, clock, provider } = await renewingProvider(20_000);
    clock.advance(20_000);
    const cancelled = new AbortController();
    const work = new TestWork('a test', cancelled.signal, new RunTime(), { ownTimeMs: 60_000, backstopMs: 600_000 });
    const api = new ApiClient({ baseUrl: server.url, clock, auth: { kind: 'bearer', tokens: provider }, work });
    // The test's request finds the token due and begins its renewal; then the test is cancelled.
    const request = api.request('GET', '/persons').catch((error: unknown) => error);
    cancelled.abort(new Error('Test timed out in 500ms.'));
    expect(await provider.accessToken()).toBe('renewed-token-1');
    expect(await request, "the ended test's own request").toBeInstanceOf(NotSentError);
    expect(server.received).toHaveLength(1);
  });

  it(
    'shares one renewal among concurrent callers, and asks again ' +
      'after a 401 only once half the lifetime has passed',
    async () => {
      const { server, clock, provider } = await renewingProvider(20_000);
      const tokens = await Promise.all([provider.renew(), provider.renew(), provider.renew()]);
      expect(tokens).toEqual(['renewed-token-1', 'renewed-token-1', 'renewed-token-1']);
      clock.advance(9_999);
      expect(await provider.renew(), 'a token refused again within half its lifetime is kept').toBe('renewed-token-1');
      clock.advance(1);
      expect(await provider.renew()).toBe('renewed-token-2');
      expect(server.received).toHaveLength(2);
    },
  );

  it('asks for at most one 20 s token per 10 s in a five-minute run that is refused on every call', async () => {
    const { server, clock, provider } = await renewingProvider(20_000);
    for (let elapsed = 0; elapsed < 300_000; elapsed += 250) {
      await provider.accessToken();
      await provider.renew();
      clock.advance(250);
    }
    expect(server.received.length).toBeLessThanOrEqual(30);
    expect(server.received.length).toBeGreaterThanOrEqual(15);
  });

  it('requests a token on first use when none was given', async () => {
    const server = await tokenServer();
    const provider = new TokenProvider(server.url, credentials);
    expect(await provider.accessToken()).toBe('renewed-token-1');
  });

  it('registers client credentials, the secret and its Basic form, with the redaction point', () => {
    registerCredentials({ clientId: 'w', clientSecret: 'worker-secret' });
    const basic = Buffer.from('w:worker-secret').toString('base64');
    expect(redactText(`worker-secret ${basic}`)).toBe('[REDACTED] [REDACTED]');
  });
});
