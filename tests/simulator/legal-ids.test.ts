// The simulator's legal-id checks against published examples, and against the suite's generator:
// two implementations written apart that agree on thousands of ids, valid and corrupted.
import { describe, expect, it } from 'vitest';
import { legalIdProblem, swedishLegalId, type Market } from '../../simulator/legal-ids.js';
import { seededRandom } from '../../simulator/random.js';
import { LegalIdGenerator, readLegalId } from '../../support/data/legal-ids.js';
import { seededRandom as suiteRandom } from '../../support/data/factories.js';

/** A valid id of the market: `readLegalId` finds no problem with it. */
const isValidLegalId = (market: Market, value: unknown): boolean => typeof readLegalId(market, value) !== 'string';

describe('published examples', () => {
  it.each([
    // personnummer package README sample and its coordination-number form (day 09 + 60)
    ['SE', '198507099805'],
    ['SE', '198507699802'],
    // fnrinfo.no worked example (individual number 567 with year 99: born 1899)
    ['NO', '31129956715'],
    // The CPR office's example number
    ['DK', '0707614285'],
    // Digital and Population Data Services Agency example, with the 2023 century signs
    ['FI', '131052-308T'],
    ['FI', '131052Y308T'],
    ['FI', '131052A308T'],
  ] as [Market, string][])('%s accepts %s', (market, value) => {
    expect(legalIdProblem(market, value)).toBeUndefined();
  });

  it.each([
    ['SE', '198507099806', /personnummer/],
    ['SE', '19850709980', /12 digits/],
    ['SE', '198507090005', /000/],
    ['NO', '31129956714', /second control digit/],
    ['NO', '31129956725', /first control digit/],
    ['NO', '31125080015', /individual number 800/],
    ['DK', '070761-4285', /10 digits/],
    ['DK', '3102614285', /does not exist/],
    ['FI', '131052-308U', /check character/],
    ['FI', '131052-001T', /individual number/],
    ['FI', '131052G308T', /century sign/],
  ] as [Market, string, RegExp][])('%s rejects %s', (market, value, reason) => {
    expect(legalIdProblem(market, value)).toMatch(reason);
  });

  it('rejects what is not a string', () => {
    expect(legalIdProblem('SE', 198507099805)).toMatch(/expected a string/);
  });
});

describe('agreement with the suite generator, written apart', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as Market[])(
    '%s: accepts every generated id and rejects what the suite rejects among one-digit corruptions',
    (market) => {
      const generator = new LegalIdGenerator(market, suiteRandom(21), { from: 1860, to: 2035 });
      const random = seededRandom(5);
      for (let index = 0; index < 1500; index += 1) {
        const { legalId } = generator.next();
        expect(legalIdProblem(market, legalId), legalId).toBeUndefined();
        const position = Math.floor(random() * legalId.length);
        const corrupted = `${legalId.slice(0, position)}${Math.floor(random() * 10)}${legalId.slice(position + 1)}`;
        expect(legalIdProblem(market, corrupted) === undefined, corrupted).toBe(isValidLegalId(market, corrupted));
      }
    },
  );

  it('makes valid Swedish ids for the background records, born in the years asked for', () => {
    const random = seededRandom(3);
    for (let index = 0; index < 500; index += 1) {
      const { legalId, dateOfBirth } = swedishLegalId(random, { from: 1930, to: 1935 });
      expect(legalIdProblem('SE', legalId), legalId).toBeUndefined();
      expect(isValidLegalId('SE', legalId)).toBe(true);
      expect(dateOfBirth).toMatch(/^193[0-5]-/);
    }
  });
});
