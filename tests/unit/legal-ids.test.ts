import Personnummer from 'personnummer';
import { describe, expect, it } from 'vitest';
import { LegalIdGenerator, readLegalId, type Gender, type Market } from '../../support/data/legal-ids.js';
import { seededRandom } from '../../support/data/factories.js';

const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];
/** A valid id of the market: `readLegalId` finds no problem with it. */
const isValidLegalId = (market: Market, value: unknown): boolean => typeof readLegalId(market, value) !== 'string';

/** Deterministic stand-in for Math.random, so a failing case can be replayed. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

describe('SE personnummer, checked against the personnummer package', () => {
  const generated = (count: number, coordination: boolean) => {
    const generator = new LegalIdGenerator('SE', seededRandom(count + (coordination ? 1 : 0)), {
      from: 1900,
      to: 2024,
    });
    return Array.from({ length: count }, () => generator.next({ coordination }));
  };

  it.each([false, true])(
    'generates ids the oracle accepts, with its date, gender and coordination flag (coordination %s)',
    (coordination) => {
      for (const { legalId, dateOfBirth, gender } of generated(3000, coordination)) {
        const parsed = Personnummer.parse(legalId);
        expect(legalId).toMatch(/^\d{12}$/);
        expect(parsed.isCoordinationNumber()).toBe(coordination);
        expect(parsed.isMale()).toBe(gender === 'Male');
        const day = Number(parsed.day) - (coordination ? 60 : 0);
        expect(`${parsed.fullYear}-${parsed.month}-${String(day).padStart(2, '0')}`).toBe(dateOfBirth);
        expect(readLegalId('SE', legalId)).toMatchObject({ dateOfBirth, gender });
      }
    },
  );

  it('agrees with the oracle on thousands of one-digit corruptions of valid ids', () => {
    // The century digits are left alone: the oracle accepts any century, this validator only 18–20.
    const random = lcg(7);
    for (const { legalId } of [...generated(2000, false), ...generated(1000, true)]) {
      const position = 2 + Math.floor(random() * 10);
      const corrupted = legalId.slice(0, position) + Math.floor(random() * 10) + legalId.slice(position + 1);
      expect(isValidLegalId('SE', corrupted), corrupted).toBe(Personnummer.valid(corrupted));
    }
  });

  it('accepts published sample numbers', () => {
    // The personnummer package's README sample, and its coordination-number counterpart (day 09 + 60).
    for (const sample of ['198507099805', '198507699802']) {
      expect(Personnummer.valid(sample)).toBe(true);
      expect(isValidLegalId('SE', sample)).toBe(true);
    }
    expect(readLegalId('SE', '198507699802')).toMatchObject({ dateOfBirth: '1985-07-09' });
    expect(readLegalId('SE', '198507099805')).toMatchObject({ gender: 'Female' });
  });

  it('computes the Luhn digit over the last ten digits, leftmost doubled', () => {
    // 8112189876: digits 8 1 1 2 1 8 9 8 7 doubled alternately → 7 1 2 2 2 8 9 8 5 = 44 → check 6.
    expect(isValidLegalId('SE', '198112189876')).toBe(true);
    expect(readLegalId('SE', '198112189875')).toMatch(/check digit should be 6, not 5/);
  });

  it.each([
    ['19850709980', /12 digits YYYYMMDDNNNC/],
    ['19850709-9805', /12 digits YYYYMMDDNNNC/],
    ['198502309805', /1985-02-30, which does not exist/],
    ['198507459805', /1985-07-45, which does not exist/],
    ['198507090005', /birth number 000/],
    ['001304194051', /century 00 is not 18, 19 or 20/],
  ])('rejects %s with a reason', (value, reason) => {
    expect(isValidLegalId('SE', value)).toBe(false);
    expect(readLegalId('SE', value)).toMatch(reason);
  });
});

describe('NO fødselsnummer', () => {
  it('accepts the published worked example 31129956715 and reads its century from the individual number', () => {
    // fnrinfo.no: K1 = 11 - (3·3+7·1+6·1+1·2+8·9+9·9+4·5+5·6+2·7 = 241; 241 mod 11 = 10) = 1,
    //             K2 = 11 - (5·3+4·1+3·1+2·2+7·9+6·9+5·5+4·6+3·7+2·1 = 215; 215 mod 11 = 6) = 5.
    // Individual number 567 with year 99 belongs to 1854–1899.
    expect(isValidLegalId('NO', '31129956715')).toBe(true);
    expect(readLegalId('NO', '31129956715')).toMatchObject({ dateOfBirth: '1899-12-31', gender: 'Male' });
  });

  it('accepts a hand-computed number from the 2000s and its D-number', () => {
    // 010105 512: K1 = 11 - (0+7+0+1+0+45+20+5+4 = 82; 82 mod 11 = 5) = 6,
    //             K2 = 11 - (0+4+0+2+0+30+25+4+6+12 = 83; 83 mod 11 = 6) = 5.
    expect(readLegalId('NO', '01010551265')).toMatchObject({ dateOfBirth: '2005-01-01', gender: 'Female' });
    // D-number: day 01 + 40 = 41. K1 = 11 - (82 + 3·4 = 94; 94 mod 11 = 6) = 5,
    //                          K2 = 11 - (5·4+4+0+2+0+30+25+4+6+2·5 = 101; 101 mod 11 = 2) = 9.
    expect(readLegalId('NO', '41010551259')).toMatchObject({ dateOfBirth: '2005-01-01' });
  });

  it.each([
    ['31129956714', /second control digit should be 5, not 4/],
    ['31129956725', /first control digit should be 1, not 2/],
    ['3112995671', /11 digits DDMMYYIIIKK/],
    ['30029956715', /1899-02-30, which does not exist/],
    // Individual numbers 750–899 are never used with years 40–99.
    ['31125080015', /individual number 800 is not used with the two-digit year 50/],
  ])('rejects %s with a reason', (value, reason) => {
    expect(readLegalId('NO', value)).toMatch(reason);
  });
});

describe('DK CPR number', () => {
  it('accepts the published example 0707614285', () => {
    // Modulus 11: 0·4+7·3+0·2+7·7+6·6+1·5+4·4+2·3+8·2+5·1 = 154 = 14·11.
    // 7th digit 4 with year 61 (37–99) belongs to the 1900s.
    expect(isValidLegalId('DK', '0707614285')).toBe(true);
    expect(readLegalId('DK', '0707614285')).toMatchObject({ dateOfBirth: '1961-07-07', gender: 'Male' });
  });

  it('reads the century from the 7th digit per the CPR table', () => {
    expect(readLegalId('DK', '0101204001')).toMatchObject({ dateOfBirth: '2020-01-01' });
    expect(readLegalId('DK', '0101605001')).toMatchObject({ dateOfBirth: '1860-01-01' });
    expect(readLegalId('DK', '0101505001')).toMatchObject({ dateOfBirth: '2050-01-01' });
    expect(readLegalId('DK', '0101409001')).toMatchObject({ dateOfBirth: '1940-01-01' });
  });

  it('accepts numbers without a valid modulus-11 digit, as issued since 2007', () => {
    expect(isValidLegalId('DK', '0707614286')).toBe(true);
  });

  it.each([
    ['070761-4285', /10 digits DDMMYYSSSS/],
    ['3102614285', /1961-02-31, which does not exist/],
  ])('rejects %s with a reason', (value, reason) => {
    expect(readLegalId('DK', value)).toMatch(reason);
  });

  it('generates only modulus-11-valid numbers', () => {
    const generator = new LegalIdGenerator('DK', seededRandom(3), { from: 1860, to: 2050 });
    for (let index = 0; index < 2000; index += 1) {
      const { legalId } = generator.next();
      const sum = [...legalId].reduce(
        (total, digit, position) => total + Number(digit) * [4, 3, 2, 7, 6, 5, 4, 3, 2, 1][position],
        0,
      );
      expect(sum % 11, legalId).toBe(0);
    }
  });
});

describe('FI henkilötunnus', () => {
  it('accepts the published example 131052-308T', () => {
    // 131052308 = 31 · 4227493 + 25, and character 25 of 0123456789ABCDEFHJKLMNPRSTUVWXY is T.
    expect(isValidLegalId('FI', '131052-308T')).toBe(true);
    expect(readLegalId('FI', '131052-308T')).toMatchObject({ dateOfBirth: '1952-10-13', gender: 'Female' });
  });

  it.each([
    ['131052Y308T', '1952-10-13'],
    ['131052U308T', '1952-10-13'],
    ['131052+308T', '1852-10-13'],
    ['131052A308T', '2052-10-13'],
    ['131052F308T', '2052-10-13'],
  ])('reads the century sign of %s', (value, dateOfBirth) => {
    expect(readLegalId('FI', value)).toMatchObject({ dateOfBirth });
  });

  it.each([
    ['131052-308U', /check character should be T, not U/],
    ['131052-001T', /individual number 001 is outside 002–899/],
    ['131052-900T', /individual number 900 is outside 002–899/],
    ['131052G308T', /DDMMYYCZZZQ/],
    ['311152-308T', /1952-11-31, which does not exist/],
  ])('rejects %s with a reason', (value, reason) => {
    expect(readLegalId('FI', value)).toMatch(reason);
  });
});

describe('a legal id for a given birth date and gender', () => {
  const cases: [Market, string, Gender][] = [
    ['SE', '1899-12-31', 'Female'],
    ['SE', '2024-02-29', 'Male'],
    ['NO', '1854-01-01', 'Male'],
    ['NO', '1939-06-15', 'Female'],
    ['NO', '1940-06-15', 'Male'],
    ['NO', '2039-12-31', 'Female'],
    ['DK', '1858-03-01', 'Female'],
    ['DK', '1936-03-01', 'Male'],
    ['DK', '2036-03-01', 'Female'],
    ['DK', '2057-03-01', 'Male'],
    ['FI', '1850-07-04', 'Male'],
    ['FI', '1999-07-04', 'Female'],
    ['FI', '2001-07-04', 'Male'],
  ];

  it.each(cases)('%s: an id for %s (%s) encodes that date and gender', (market, dateOfBirth, gender) => {
    const random = lcg(dateOfBirth.length + gender.length);
    for (let index = 0; index < 200; index += 1) {
      const legalId = new LegalIdGenerator(market, random).next({ dateOfBirth, gender }).legalId;
      expect(isValidLegalId(market, legalId)).toBe(true);
      expect(readLegalId(market, legalId)).toMatchObject({ dateOfBirth, gender });
    }
  });

  it('makes NO D-numbers by adding 40 to the day', () => {
    const wish = { dateOfBirth: '1980-05-17', gender: 'Male', coordination: true } as const;
    const { legalId } = new LegalIdGenerator('NO', lcg(1)).next(wish);
    expect(legalId.slice(0, 2)).toBe('57');
    expect(readLegalId('NO', legalId)).toMatchObject({ dateOfBirth: '1980-05-17' });
  });

  it.each([
    [{ market: 'DK', dateOfBirth: '1980-05-17', gender: 'Male', coordination: true }, /DK has no coordination numbers/],
    [{ market: 'NO', dateOfBirth: '2040-01-01', gender: 'Male' }, /cannot encode the birth year 2040/],
    [{ market: 'DK', dateOfBirth: '1857-01-01', gender: 'Male' }, /cannot encode the birth year 1857/],
    [{ market: 'SE', dateOfBirth: '1980-02-30', gender: 'Male' }, /real date YYYY-MM-DD/],
  ] as const)('refuses %j', (request, reason) => {
    const { market, ...wish } = request;
    expect(() => new LegalIdGenerator(market, lcg(1)).next(wish)).toThrow(reason);
  });
});

describe('LegalIdGenerator', () => {
  it.each(MARKETS)('%s: the same seed gives the same ids, another seed other ids', (market) => {
    const draw = (seed: number) => {
      const generator = new LegalIdGenerator(market, seededRandom(seed));
      return Array.from({ length: 50 }, () => generator.next());
    };
    expect(draw(11)).toEqual(draw(11));
    expect(draw(12).map((id) => id.legalId)).not.toEqual(draw(11).map((id) => id.legalId));
  });

  it.each(MARKETS)('%s: never repeats an id, even for one fixed birth date and gender', (market) => {
    const generator = new LegalIdGenerator(market, seededRandom(5));
    const ids = Array.from(
      { length: 150 },
      () => generator.next({ dateOfBirth: '1990-01-01', gender: 'Female' }).legalId,
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps random birth dates within the configured years', () => {
    const generator = new LegalIdGenerator('FI', seededRandom(9), { from: 1970, to: 1971 });
    for (let index = 0; index < 200; index += 1) {
      expect(generator.next().dateOfBirth).toMatch(/^197[01]-/);
    }
  });
});
