import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMERS, Harness, type HarnessOptions, PERSONS, personPath, withHarness } from './harness.js';

describe('the control surface', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ control: true });
  });
  afterAll(() => h.close());

  it('counts requests per route pattern, tokens issued and faults', async () => {
    await h.request('POST', '/__control/reset');
    const token = await h.token();
    await h.request('GET', personPath('a'), { token });
    await h.request('GET', personPath('b'), { token });
    const report = (await h.request('GET', '/__control/requests')).body;
    expect(report).toEqual({
      counts: { 'POST /sandbox/v1/token.oauth2': 1, 'GET /consumer-intelligence/v3/markets/:market/persons/:gedi': 2 },
      tokensIssued: 1,
      faultsInjected: 0,
      throttled: 0,
    });
  });

  it('lists the custom persons of all clients until they are deleted, and forgets them on reset', async () => {
    const [first, second] = await Promise.all([h.token(0), h.token(1)]);
    const mine = h.person();
    await h.request('PUT', PERSONS, { token: first, json: mine });
    await h.request('PUT', PERSONS, { token: second, json: h.person() });
    const listed = async () => (await h.request('GET', '/__control/persons')).body.persons;
    expect((await listed()).map((p: { clientId: string }) => p.clientId).sort()).toEqual([
      'contract-client',
      'second-client',
    ]);
    await h.request('DELETE', PERSONS, { token: first, json: { id: mine.id } });
    expect((await listed()).map((p: { clientId: string }) => p.clientId)).toEqual(['second-client']);
    await h.request('POST', '/__control/reset');
    expect(await listed()).toEqual([]);
    expect((await h.request('GET', CONSUMERS, { token: first })).status).toBe(200);
  });

  it('lists every access token issued, with its client, so a leak search knows what to look for', async () => {
    const [first, second] = await Promise.all([h.token(0), h.token(1)]);
    await h.request('POST', '/__control/reset');
    const { tokens } = (await h.request('GET', '/__control/tokens')).body;
    expect(tokens).toEqual(
      expect.arrayContaining([
        { accessToken: first, clientId: 'contract-client' },
        { accessToken: second, clientId: 'second-client' },
      ]),
    );
  });

  it('reports when each effect became visible and when a read first returned it', async () => {
    await h.request('POST', '/__control/reset');
    const token = await h.token();
    const { body } = await h.request('PUT', PERSONS, { token, json: h.person() });
    const record = async () =>
      (await h.request('GET', '/__control/visibility')).body.records.find(
        (r: { gedi: string }) => r.gedi === body.gedi,
      );
    const before = await record();
    expect(before).toMatchObject({ kind: 'person-version', version: 1, firstReadAt: null });
    expect(before.visibleAt).toBeGreaterThan(before.writtenAt);
    h.settle();
    await h.request('GET', personPath(body.gedi), { token });
    const after = await record();
    expect(after.firstReadAt).toBeGreaterThanOrEqual(after.visibleAt);
  });
});

describe('knobs', () => {
  // Each knob's test starts a simulator of its own with the knob set.
  const knob = (title: string, options: HarnessOptions, check: (h: Harness) => Promise<void>) =>
    it(title, () => withHarness(options, check));

  knob('serves no control surface unless enabled', {}, async (h) => {
    expect((await h.request('GET', '/__control/requests')).status).toBe(404);
  });

  knob(
    'answers every API request 429 or 503 with Retry-After at fault rate 1, processes nothing, and spares the ' +
      'control surface',
    { faultRate: 1, control: true },
    async (h) => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => h.tokenRequest()));
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([429, 503]));
      expect(answers.every((answer) => answer.headers.get('retry-after') === '1')).toBe(true);
      const report = (await h.request('GET', '/__control/requests')).body;
      expect(report).toMatchObject({ tokensIssued: 0, faultsInjected: 20 });
    },
  );

  knob(
    "refuses a client beyond its rate with 429 and Retry-After, processes nothing, and keeps each client's rate " +
      'apart',
    { rateLimitPerSecond: 2, control: true },
    async (h) => {
      // A second's worth (two) at once, then refused until the bucket refills.
      const answers = await Promise.all(Array.from({ length: 4 }, () => h.tokenRequest()));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429, 429]);
      expect(
        answers.filter((answer) => answer.status === 429).every((answer) => answer.headers.get('retry-after') === '1'),
      ).toBe(true);
      expect((await h.tokenRequest(1)).status, 'the other client has a rate of its own').toBe(200);
      h.clock!.advance(500);
      expect((await h.tokenRequest()).status, 'half a second later, one more').toBe(200);
      expect((await h.tokenRequest()).status).toBe(429);
      const report = (await h.request('GET', '/__control/requests')).body;
      expect(report).toMatchObject({ tokensIssued: 4, throttled: 3 });
    },
  );

  knob('holds API requests for the configured latency, on its clock', { latencyMs: 60 }, async (h) => {
    const clock = h.clock!;
    const answer = h.tokenRequest();
    const held = await Promise.race([clock.someoneSleeps().then(() => true), answer.then(() => false)]);
    expect(held, 'held before it is answered').toBe(true);
    clock.advance(59);
    expect(clock.sleeping, 'held 59 ms into its 60').toBe(1);
    clock.advance(1);
    expect(clock.sleeping, 'let go at 60 ms').toBe(0);
    expect((await answer).status).toBe(200);
  });

  knob(
    'accepts only the configured provider code and client credentials',
    { provider: 'OWN-PROVIDER', clients: [{ id: 'only', secret: 'pass' }] },
    async (h) => {
      const token = await h.token();
      const screen = (provider: string) =>
        h.request('POST', '/aml-real-time-screening/v2/api/aml/kyc/person/screening', {
          token,
          json: { reference: 'person_test_case_01', provider },
        });
      expect((await screen('OWN-PROVIDER')).status).toBe(200);
      expect((await screen('SANDBOX-AML')).status).toBe(400);
    },
  );
});
