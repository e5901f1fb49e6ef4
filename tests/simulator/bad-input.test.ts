import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegalIdGenerator, type Market } from '../../support/data/legal-ids.js';
import { seededRandom } from '../../support/data/factories.js';
import { CONSUMERS, findPath, Harness, PERSONS, personPath, screeningPath, SUBSCRIPTIONS } from './harness.js';

describe('bad input gets a clear JSON error and changes nothing', () => {
  let h: Harness;
  let token: string;
  Harness.forBlock(
    { control: true, bodyLimitBytes: 4096, availabilityDelayMs: 0 },
    (started) => ({ h, token } = started),
  );

  const storedPersons = async () => (await h.request('GET', '/__control/persons')).body.persons.length;

  it.each([
    ['a missing id', () => h.person({ id: undefined }), 'id'],
    ['a number as familyName', () => h.person({ familyName: 42 }), 'familyName'],
    ['a string as firstNames', () => h.person({ firstNames: 'Anna' }), 'firstNames'],
    ['an impossible dateOfBirth', () => h.person({ dateOfBirth: '2001-02-30' }), 'dateOfBirth'],
    ['a date in another format', () => h.person({ dateOfDeath: '03/02/2001' }), 'dateOfDeath'],
    [
      'a bad relationship date',
      () => h.person({ relationshipList: [{ dateOfDeath: 'yesterday' }] }),
      'relationshipList[0].dateOfDeath',
    ],
    ['a wrong Luhn digit', () => h.person({ legalId: '191212121213' }), 'legalId'],
    ['an unknown market', () => h.person({ country: 'XX' }), 'country'],
    ['a legal id of another market', () => h.person({ country: 'NO' }), 'legalId'],
    ['merged without gedi', () => h.person({ merged: {} }), 'merged.gedi'],
    ['an array body', () => [h.person()], 'body'],
  ])('rejects a person with %s (400 naming %s)', async (_what, body, field) => {
    const before = await storedPersons();
    const answer = await h.request('PUT', PERSONS, { token, json: body() });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: field === 'body' ? 'wrong_json_type' : 'invalid_request', field });
    expect(answer.body.error.message).toContain(field);
    expect(await storedPersons()).toBe(before);
  });

  it.each([
    ['malformed JSON', { contentType: 'application/json', body: '{"id": "x",' }, 'body'],
    ['an empty JSON body', { contentType: 'application/json', body: '' }, 'body'],
    ['a text body', { contentType: 'text/plain', body: 'id=x' }, 'Content-Type'],
    ['a form body', { contentType: 'application/x-www-form-urlencoded', body: 'id=x' }, 'Content-Type'],
    ['an unknown content type', { contentType: 'application/xml', body: '<id>x</id>' }, 'Content-Type'],
  ])('rejects %s with 400 naming %s', async (_what, raw, field) => {
    const answer = await h.request('PUT', PERSONS, { token, raw });
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toBe(field);
  });

  it('rejects a body over the size limit with 413', async () => {
    const answer = await h.request('PUT', PERSONS, { token, json: h.person({ familyName: 'x'.repeat(5000) }) });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('payload_too_large');
  });

  it('rejects a DELETE that neither deletes nor removes, and one for an unknown id', async () => {
    const person = h.person();
    await h.request('PUT', PERSONS, { token, json: person });
    const ambiguous = await h.request('DELETE', PERSONS, { token, json: { ...person, removed: false } });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.field).toBe('removed');
    expect((await h.request('DELETE', PERSONS, { token, json: { id: 'never-created' } })).status).toBe(404);
  });

  it.each([
    ['an empty array', []],
    ['an object instead of an array', { consumerId: 'c', market: 'SE', data: { legalId: '191212121212' } }],
    ['a consumer without data.legalId', [{ consumerId: 'c', market: 'SE', data: {} }]],
    ['an invalid legal id', [{ consumerId: 'c', market: 'SE', data: { legalId: '191212121213' } }]],
    ['an unknown market', [{ consumerId: 'c', market: 'US', data: { legalId: '191212121212' } }]],
  ])('rejects a consumer upload with %s', async (_what, json) => {
    const answer = await h.request('POST', CONSUMERS, { token, json });
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toEqual(expect.any(String));
  });

  it('rejects a bad page size or cursor, naming the parameter', async () => {
    expect((await h.request('GET', `${CONSUMERS}?limit=0`, { token })).body.error.field).toBe('limit');
    expect((await h.request('GET', `${SUBSCRIPTIONS}?pageToken=garbage`, { token })).body.error.field).toBe(
      'pageToken',
    );
  });

  it('rejects _find without a valid legal id or in an unknown market', async () => {
    expect((await h.request('POST', findPath(), { token, json: {} })).body.error.field).toBe('legalId');
    expect((await h.request('POST', findPath(), { token, json: { legalId: '12' } })).body.error.field).toBe('legalId');
    expect(
      (await h.request('POST', findPath('XX'), { token, json: { legalId: '191212121212' } })).body.error.field,
    ).toBe('market');
  });

  it.each([
    ['person', { reference: 'person_test_case_01', provider: 'OTHER-PROVIDER' }, 'provider'],
    ['person', { reference: 'person_test_case_01' }, 'provider'],
    ['person', { reference: 'person_test_case_99', provider: 'SANDBOX-AML' }, 'reference'],
    ['person', { reference: 'company_test_case_01', provider: 'SANDBOX-AML' }, 'reference'],
    ['company', { reference: 'company_test_case_01', provider: 'OTHER-PROVIDER' }, 'provider'],
    ['company', { reference: 'person_test_case_01' }, 'reference'],
  ] as const)('rejects a %s screening %j naming %s', async (subject, json, field) => {
    const answer = await h.request('POST', screeningPath(subject), { token, json });
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toBe(field);
  });

  it('answers an unknown route with a loud 404 JSON error', async () => {
    const answer = await h.request('GET', '/consumer-intelligence/v4/nothing', { token });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({
      code: 'no_route',
      message: expect.stringContaining('/consumer-intelligence/v4/nothing'),
    });
  });

  it('answers a wrong method with 405 and the allowed ones', async () => {
    const answer = await h.request('POST', PERSONS, { token, json: h.person() });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('PUT, DELETE');
    expect((await h.request('GET', '/sandbox/v1/token.oauth2')).status).toBe(405);
  });
});

describe('authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ tokenTtlSeconds: 60 });
  });
  afterAll(() => h.close());

  it.each([
    ['no Authorization header', {}],
    ['a malformed header', { authorization: 'Bearer' }],
    ['another scheme', { authorization: 'Basic Y29udHJhY3QtY2xpZW50OmNvbnRyYWN0LXNlY3JldA==' }],
    ['an unknown token', { authorization: 'Bearer not-a-token' }],
  ])('answers 401 to %s', async (_what, headers) => {
    const answer = await h.request('GET', CONSUMERS, { headers });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(answer.body.error.field).toBe('Authorization');
  });

  it('answers 401 once the token has expired', async () => {
    const token = await h.token();
    h.clock!.advance(59_000);
    expect((await h.request('GET', CONSUMERS, { token })).status).toBe(200);
    h.clock!.advance(1_000);
    expect((await h.request('GET', CONSUMERS, { token })).status).toBe(401);
  });

  it('rejects a wrong secret or an unknown client with 401', async () => {
    expect((await h.tokenRequest(0, undefined, 'wrong')).status).toBe(401);
    const unknown = await h.request('POST', '/sandbox/v1/token.oauth2', {
      headers: { authorization: `Basic ${Buffer.from('nobody:secret').toString('base64')}` },
      raw: { contentType: 'application/x-www-form-urlencoded', body: 'grant_type=client_credentials&scope=bci' },
    });
    expect(unknown.status).toBe(401);
  });

  it('rejects a wrong grant type or scope with 400 naming the field', async () => {
    expect((await h.tokenRequest(0, { grant_type: 'password', scope: 'bci' })).body.error.field).toBe('grant_type');
    expect((await h.tokenRequest(0, { grant_type: 'client_credentials', scope: 'all' })).body.error.field).toBe(
      'scope',
    );
  });

  it('keeps the second client apart from the first', async () => {
    const [first, second] = await Promise.all([h.token(0), h.token(1)]);
    expect(first).not.toBe(second);
    expect((await h.request('GET', personPath('x'), { token: second })).status).toBe(404);
  });
});

describe('markets', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ availabilityDelayMs: 0 });
  });
  afterAll(() => h.close());

  it.each(['SE', 'NO', 'DK', 'FI'] as Market[])('accepts, finds and validates %s legal ids', async (market) => {
    const token = await h.token();
    const { legalId, dateOfBirth } = new LegalIdGenerator(market, seededRandom(3)).next();
    const person = h.person({ country: market, legalId, dateOfBirth });
    const put = await h.request('PUT', PERSONS, { token, json: person });
    expect(put.status).toBe(200);
    const found = await h.request('POST', findPath(market), { token, json: { legalId } });
    expect(found.body.results.map((r: { gedi: string }) => r.gedi)).toEqual([put.body.gedi]);
    expect((await h.request('GET', personPath(put.body.gedi, market), { token })).status).toBe(200);
    // Month 13: every market encodes the birth date (DK has no mandatory check digit to break).
    const monthAt = market === 'SE' ? 4 : 2;
    const broken = `${legalId.slice(0, monthAt)}13${legalId.slice(monthAt + 2)}`;
    expect((await h.request('PUT', PERSONS, { token, json: { ...person, legalId: broken } })).body.error.field).toBe(
      'legalId',
    );
  });

  it('accepts a Swedish coordination number', async () => {
    const token = await h.token();
    const { legalId } = new LegalIdGenerator('SE', seededRandom(4)).next({ coordination: true });
    expect((await h.request('PUT', PERSONS, { token, json: h.person({ legalId }) })).status).toBe(200);
  });
});
