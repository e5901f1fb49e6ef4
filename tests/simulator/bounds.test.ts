// The vendor's published input bounds (../../shared/vendor-public-notes.md, sandbox-service
// reference and the consumer guides), enforced the same way in every layout: out of bounds is a
// 400 naming the field, and nothing is stored.
import { describe, expect, it } from 'vitest';
import { LAYOUT_NAMES } from '../../simulator/options.js';
import { CONSUMERS, Harness, PERSONS } from './harness.js';

const STRICT = { removed: false, deregistered: false, protectedIdentity: false, socialSecurityNumberTemporary: false };
const long = (length: number) => 'x'.repeat(length);

describe.each(LAYOUT_NAMES)('the %s layout', (layout) => {
  let h: Harness;
  let token: string;
  Harness.forBlock({ layout, control: true, availabilityDelayMs: 0 }, (started) => ({ h, token } = started));

  const storedPersons = async () => (await h.request('GET', '/__control/persons')).body.persons.length;

  it.each([
    ['a 16-character id', () => h.person({ id: long(16) }), 'id'],
    ['an empty id', () => h.person({ id: '' }), 'id'],
    ['no country', () => h.person({ country: undefined }), 'country'],
    ['a lower-case country', () => h.person({ country: 'se' }), 'country'],
    ['no dateOfBirth', () => h.person({ dateOfBirth: undefined }), 'dateOfBirth'],
    ['both firstName and firstNames', () => h.person({ firstName: 'Anna' }), 'firstName'],
    [
      '11 firstNames',
      () => h.person({ firstNames: Array.from({ length: 11 }, (_, index) => `Name${index}`) }),
      'firstNames',
    ],
    ['a first name of 101 characters', () => h.person({ firstNames: [long(101)] }), 'firstNames[0]'],
    ['a familyName of 101 characters', () => h.person({ familyName: long(101) }), 'familyName'],
    ['an additionalName of 101 characters', () => h.person({ additionalName: long(101) }), 'additionalName'],
    ['a preferredFirstName of 101 characters', () => h.person({ preferredFirstName: long(101) }), 'preferredFirstName'],
    ['a legalId of 101 characters', () => h.person({ legalId: `1${'9'.repeat(100)}` }), 'legalId'],
    ['a gender outside the four', () => h.person({ gender: 'male' }), 'gender'],
    [
      "a relative's familyName of 101 characters",
      () => h.person({ relationshipList: [{ hierarchicalRelationship: 'Parent', familyName: long(101) }] }),
      'relationshipList[0].familyName',
    ],
    [
      'a relative with 11 firstNames',
      () => h.person({ relationshipList: [{ firstNames: Array.from({ length: 11 }, () => 'Anna') }] }),
      'relationshipList[0].firstNames',
    ],
  ])('refuses a person with %s: 400 naming %s, nothing stored', async (_what, body, field) => {
    const before = await storedPersons();
    const answer = await h.request('PUT', PERSONS, { token, json: body() });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(field);
    expect(await storedPersons()).toBe(before);
  });

  it.each([
    ['a 15-character id', () => h.person({ id: `bound-${Date.now().toString(36).slice(-9)}`.padEnd(15, '0') })],
    [
      'firstName instead of firstNames, as in the first sample',
      () => h.person({ firstNames: undefined, firstName: 'Anna' }),
    ],
    ['firstName with firstNames null', () => h.person({ firstNames: null, firstName: 'Anna' })],
    [
      '10 first names of 100 characters',
      () => h.person({ firstNames: Array.from({ length: 10 }, (_, index) => `${index}${long(99)}`) }),
    ],
    [
      'gender Other, and Unknown for a relative',
      () => h.person({ gender: 'Other', relationshipList: [{ gender: 'Unknown', firstNames: ['Anna'] }] }),
    ],
    ['none of the four booleans (they are required only in the strict mode)', () => h.person()],
  ])('accepts a person with %s', async (_what, body) => {
    const person = body();
    expect(((person.id as string) ?? '').length).toBeLessThanOrEqual(15);
    expect((await h.request('PUT', PERSONS, { token, json: person })).status).toBeLessThan(300);
  });

  it('deletes by id alone, and refuses a removal whose person fields are out of bounds', async () => {
    const person = h.person();
    await h.request('PUT', PERSONS, { token, json: person });
    expect(
      (await h.request('DELETE', PERSONS, { token, json: { ...person, removed: true, familyName: long(101) } })).status,
    ).toBe(400);
    expect((await h.request('DELETE', PERSONS, { token, json: { id: person.id } })).status).toBeLessThan(300);
    expect((await h.request('DELETE', PERSONS, { token, json: { id: long(16) } })).status).toBe(400);
  });

  const consumer = (consumerId: string) => ({ consumerId, market: 'SE', data: { legalId: h.freshLegalId() } });

  it('refuses an upload of 101 consumers, and a consumer id of 16 characters; takes 100 of 15', async () => {
    const tooMany = await h.request('POST', CONSUMERS, {
      token,
      json: Array.from({ length: 101 }, (_, index) => consumer(`many-${index}`)),
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('at most 100 consumers');
    const longId = await h.request('POST', CONSUMERS, { token, json: [consumer(long(16))] });
    expect(longId.status).toBe(400);
    expect(JSON.stringify(longId.body)).toContain('[0].consumerId');
    const hundred = await h.request('POST', CONSUMERS, {
      token,
      json: Array.from({ length: 100 }, (_, index) => consumer(`c-${String(index).padStart(13, '0')}`)),
    });
    expect(hundred.status).toBeLessThan(300);
  });
});

describe.each(LAYOUT_NAMES)('the strict-booleans mode in the %s layout', (layout) => {
  let h: Harness;
  let token: string;
  Harness.forBlock({ layout, strictBooleans: true, availabilityDelayMs: 0 }, (started) => ({ h, token } = started));

  it.each(Object.keys(STRICT))('refuses a PUT without %s', async (flag) => {
    const answer = await h.request('PUT', PERSONS, { token, json: h.person({ ...STRICT, [flag]: undefined }) });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(flag);
  });

  it('accepts a PUT with all four, the first sample among them, and still deletes by id alone', async () => {
    const person = h.person({ ...STRICT, firstNames: undefined, firstName: 'Anna' });
    expect((await h.request('PUT', PERSONS, { token, json: person })).status).toBeLessThan(300);
    expect((await h.request('DELETE', PERSONS, { token, json: { id: person.id } })).status).toBeLessThan(300);
  });
});
