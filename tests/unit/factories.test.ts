import { describe, expect, it } from 'vitest';
import { createDataFactory, newId, type SandboxPerson } from '../../support/data/factories.js';
import { readLegalId, type Market } from '../../support/data/legal-ids.js';
import { expectSchema } from '../../support/readings/schemas.js';
import { newRunId } from '../../support/run/config.js';

/** A valid id of the market: `readLegalId` finds no problem with it. */
const isValidLegalId = (market: Market, value: unknown): boolean => typeof readLegalId(market, value) !== 'string';

const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];
const COUNTRY_CODES: Record<Market, string> = { SE: '+46', NO: '+47', DK: '+45', FI: '+358' };
const POSTAL_CODES: Record<Market, RegExp> = { SE: /^[1-9]\d{4}$/, NO: /^\d{4}$/, DK: /^[1-9]\d{3}$/, FI: /^\d{5}$/ };

const factoryFor = (market: Market, seed = 1, scope = 'factories.test.ts > a test') =>
  createDataFactory({ seed, runId: 'rtest42', market, scope });

/** Every kind of person the factory makes, including relatives, as one sample per seed. */
function samples(market: Market, seed: number): SandboxPerson[] {
  const data = factoryFor(market, seed);
  return [
    data.person(),
    data.firstSamplePerson(),
    data.person({ relationshipList: [data.relationship(), data.relationship({ dateOfDeath: data.pastDate() })] }),
    data.person({
      deregistered: true,
      deregisteredReason: data.deregistrationReason(),
      deregisteredDate: data.pastDate(),
    }),
  ];
}

describe.each(MARKETS)('createDataFactory (%s)', (market) => {
  it('makes persons that pass the sandbox-person schema, over many seeds', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      for (const person of samples(market, seed)) expectSchema('sandbox-person', person);
    }
  });

  it(
    'makes consistent persons: legal id, date of birth and gender agree; ' + 'address and phone belong to the market',
    () => {
      const data = factoryFor(market);
      for (let index = 0; index < 200; index += 1) {
        const person = data.person();
        expect(isValidLegalId(market, person.legalId)).toBe(true);
        expect(readLegalId(market, person.legalId)).toMatchObject({
          dateOfBirth: person.dateOfBirth,
          gender: person.gender,
        });
        expect(person.country).toBe(market);
        expect(person.citizenship).toEqual([market]);
        expect(person.firstNames).toContain(person.preferredFirstName);
        const [address] = person.addressList ?? [];
        expect(address).toMatchObject({ type: 'Postal', subType: 'Domicile', country: market });
        expect(address?.postalCode).toMatch(POSTAL_CODES[market]);
        expect(address?.city).toEqual(expect.any(String));
        const [phone] = person.phoneList ?? [];
        expect(phone?.type).toBe('Mobile');
        expect(phone?.number?.startsWith(COUNTRY_CODES[market])).toBe(true);
        expect(person).toMatchObject({
          directMarketingRestriction: false,
          charityMarketingRestriction: false,
          onlineMarketingRestriction: false,
        });
      }
    },
  );

  it('gives relatives their own consistent legal id and makes them older than any person', () => {
    const data = factoryFor(market);
    for (let index = 0; index < 100; index += 1) {
      const relative = data.relationship();
      const legalId = relative.legalId?.socialSecurityNumber ?? '';
      expect(relative.hierarchicalRelationship).toBe('Parent');
      expect(readLegalId(market, legalId)).toMatchObject({
        dateOfBirth: relative.dateOfBirth,
        gender: relative.gender,
      });
      expect(relative.dateOfBirth?.localeCompare('1975-01-01')).toBe(-1);
      expect(data.pastDate().localeCompare('2005-12-31')).toBe(1);
    }
  });

  it('keeps the legal id consistent with a fixed date of birth, gender or legal id', () => {
    const data = factoryFor(market);
    const fixedBirth = data.person({ dateOfBirth: '1990-02-28', gender: 'Female' });
    expect(readLegalId(market, fixedBirth.legalId)).toMatchObject({ dateOfBirth: '1990-02-28', gender: 'Female' });
    const { legalId } = data.person();
    const fixedId = data.person({ legalId });
    expect(readLegalId(market, legalId)).toMatchObject({ dateOfBirth: fixedId.dateOfBirth, gender: fixedId.gender });
    expect(data.person({ legalId: 'not-a-legal-id' }).legalId).toBe('not-a-legal-id');
  });

  it('draws thousands of persons, relatives and consumers inside every published bound (the bounded schemas)', () => {
    const data = factoryFor(market, 11);
    const ids = new Set<string>();
    for (let index = 0; index < 1000; index += 1) {
      const relatives = [
        data.relationship(),
        data.relationship({ dateOfDeath: data.pastDate() }),
        data.relationship({ deregistered: true, deregisteredReason: data.deregistrationReason() }),
      ];
      const person =
        index % 2 === 0
          ? data.person({ relationshipList: relatives })
          : data.firstSamplePerson({ relationshipList: relatives });
      expectSchema('sandbox-person', person);
      expectSchema('delete-person-request', { ...person, removed: true });
      expect(person, 'the four booleans are sent, false where they do not apply').toMatchObject({
        removed: false,
        deregistered: false,
        protectedIdentity: false,
        socialSecurityNumberTemporary: false,
      });
      const consumers = Array.from({ length: 100 }, () => data.consumer(person.legalId));
      expectSchema('consumer-upload', consumers);
      for (const id of [person.id, ...consumers.map((consumer) => consumer.consumerId)]) ids.add(id);
    }
    expect(ids.size, 'every person and consumer id is new').toBe(1000 * 101);
  });

  it('reproduces the same data from the same seed and scope, and other data from another seed or scope', () => {
    // Ids are drawn per run, not per test (support/data/factories.ts newId): the data is what reproduces.
    const withoutIds = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value, (key, inner: unknown) => (key === 'id' || key === 'consumerId' ? undefined : inner)),
      ) as unknown;
    const draw = (seed: number, scope?: string) => {
      const data = factoryFor(market, seed, scope);
      return withoutIds([
        ...samples(market, seed),
        data.person(),
        data.consumer(data.unknownLegalId()),
        data.unknownGedi('G-123abc'),
      ]);
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(8)).not.toEqual(draw(7));
    const persons = (scope: string) => factoryFor(market, 7, scope).person();
    expect(withoutIds(persons('one test'))).toEqual(withoutIds(persons('one test')));
    expect(persons('another test').legalId).not.toBe(persons('one test').legalId);
  });

  it("never repeats a legal id within a factory, and unknownLegalId is never a person's", () => {
    const data = factoryFor(market);
    const persons = Array.from({ length: 300 }, () => data.person({ relationshipList: [data.relationship()] }));
    const used = persons.flatMap((person) => [
      person.legalId,
      person.relationshipList?.[0]?.legalId?.socialSecurityNumber,
    ]);
    const unknown = Array.from({ length: 100 }, () => data.unknownLegalId());
    expect(unknown.every((legalId) => isValidLegalId(market, legalId))).toBe(true);
    expect(new Set([...used, ...unknown]).size).toBe(used.length + unknown.length);
  });
});

describe('createDataFactory ids and helpers', () => {
  it('makes ids of at most 15 letters and digits that carry the run id and never repeat within the run', () => {
    const data = createDataFactory({ seed: 1, runId: 'rab12cd3ef', market: 'SE', scope: 'some test' });
    const other = createDataFactory({ seed: 1, runId: 'rab12cd3ef', market: 'SE', scope: 'other test' });
    const ids = [
      data.person().id,
      data.person().id,
      other.person().id,
      data.consumer('198507099805').consumerId,
      other.consumer('198507099805').consumerId,
    ];
    for (const id of ids) expect(id).toMatch(/^[pc]ab12cd3ef[0-9a-z]{5}$/);
    expect(ids.map((id) => id[0])).toEqual(['p', 'p', 'p', 'c', 'c']);
    expect(new Set(ids).size, 'tests of one run draw from one sequence').toBe(ids.length);
    const later = createDataFactory({ seed: 1, runId: 'rab12cd3eg', market: 'SE', scope: 'some test' }).person().id;
    expect(later.slice(1, 10), 'another run, another tag').toBe('ab12cd3eg');
    expect(newId('p', 'r_42/x'), 'any run id is folded into nine letters and digits').toMatch(
      /^p00000042x[0-9a-z]{5}$/,
    );
  });

  it('makes consumers that pass the consumer schemas', () => {
    const data = factoryFor('NO');
    const consumers = [data.consumer(data.person().legalId), data.consumer(data.unknownLegalId())];
    expect(consumers[0]).toMatchObject({ market: 'NO', data: { legalId: expect.any(String) } });
    for (const consumer of consumers) expectSchema('consumer', consumer);
    expectSchema('consumer-upload', consumers);
  });

  it('shapes the first sample like the documentation: firstName instead of firstNames', () => {
    const person = factoryFor('SE').firstSamplePerson();
    expect(person.firstName).toEqual(expect.any(String));
    expect(person).not.toHaveProperty('firstNames');
    expect(person).not.toHaveProperty('preferredFirstName');
  });

  it('makes names for screening requests and a wrong secret', () => {
    const data = factoryFor('FI');
    expect(data.personName()).toEqual({ firstName: expect.any(String), lastName: expect.any(String) });
    expect(data.wrongSecret()).toMatch(/^wrong-[A-Za-z0-9]{32}$/);
    expect(data.wrongSecret()).not.toBe(data.wrongSecret());
  });

  it('makes an unknown gedi of the same shape as a known one', () => {
    const data = factoryFor('SE');
    for (const known of ['G-123abc', '550e8400-e29b-41d4-a716-446655440000', '7']) {
      const unknown = data.unknownGedi(known);
      expect(unknown).not.toBe(known);
      expect(unknown.replace(/\d/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').slice(0, known.length)).toBe(
        known.replace(/\d/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A'),
      );
    }
  });
});

describe('newRunId', () => {
  it('is r, the seconds since 2024 and three random characters: whole inside every id', () => {
    const at = Date.UTC(2026, 10, 23, 12);
    const ids = Array.from({ length: 50 }, () => newRunId(at));
    for (const runId of ids) expect(runId).toMatch(/^r[0-9a-z]{9}$/);
    expect(new Set(ids.map((runId) => runId.slice(0, 7))).size, 'one second, one time part').toBe(1);
    expect(new Set(ids).size, 'runs that start in the same second still differ').toBeGreaterThan(40);
    expect(newRunId(at + 1000) > newRunId(at), 'later runs sort later').toBe(true);
  });
});
