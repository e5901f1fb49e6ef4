// Owns the legal ids of the four markets, validated and generated from one table (FORMATS). SE is hand-written, not
// the `personnummer` package: that is the simulator's SE check and this file's test oracle, which one bug would fool.
import type { Market } from '../run/config.js';

export type { Market };
export type Gender = 'Male' | 'Female';
type Identity = { legalId: string; dateOfBirth: string; gender: Gender };

interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Inclusive range of integers. */
interface Range {
  from: number;
  to: number;
}

/** Ids whose serial lies in `serials` and whose two-digit year lies in `years` were born in `century` + year. */
interface CenturyRule {
  serials: Range;
  years: Range;
  century: number;
}

interface IdFormat {
  /** What the id is called and how it is laid out, for messages. */
  name: string;
  layout: string;
  shape: RegExp;
  /** Index of the digit whose parity is the gender: odd means male. */
  genderDigit: number;
  /** Coordination-style numbers add this to the day of birth (absent: the market has none we generate). */
  coordinationDayOffset?: number;
  /** The birth date as encoded (day still including any coordination offset), or why it cannot be read. */
  readBirth(id: string): CivilDate | string;
  /** Check digits and serial ranges: whatever else makes a well-shaped id with a real date invalid. */
  checkProblem(id: string): string | undefined;
  /** Serials a person born in `year` can have (the part of the id the generator chooses). */
  serials(year: number): Range[];
  /** The id for an encoded birth date and serial; undefined when that serial admits no check digit. */
  compose(birth: CivilDate, serial: number): string | undefined;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** The digit that makes the weighted sum divisible by 11; undefined when it would be 10 (no such id is issued). */
function mod11CheckDigit(text: string, weights: readonly number[]): number | undefined {
  const sum = [...text].reduce((total, digit, index) => total + Number(digit) * weights[index], 0);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? undefined : check;
}

/** Luhn check digit; the leftmost digit is doubled (Swedish convention over the 9 digits YYMMDDNNN). */
function luhnCheckDigit(text: string): number {
  const sum = [...text].reduce((total, digit, index) => {
    const product = Number(digit) * (index % 2 === 0 ? 2 : 1);
    return total + (product > 9 ? product - 9 : product);
  }, 0);
  return (10 - (sum % 10)) % 10;
}

const inRange = (value: number, range: Range) => value >= range.from && value <= range.to;

/** DDMMYY… layouts: day, month and two-digit year come first; the century follows from the serial by `rules`. */
function readShortDate(id: string, rules: readonly CenturyRule[], serial: number, why: string): CivilDate | string {
  const twoDigitYear = Number(id.slice(4, 6));
  const rule = rules.find((each) => inRange(serial, each.serials) && inRange(twoDigitYear, each.years));
  if (rule === undefined) return `${why} is not used with the two-digit year ${id.slice(4, 6)}`;
  return { year: rule.century + twoDigitYear, month: Number(id.slice(2, 4)), day: Number(id.slice(0, 2)) };
}

function serialsFor(rules: readonly CenturyRule[], year: number): Range[] {
  return rules.filter((rule) => inRange(year - rule.century, rule.years)).map((rule) => rule.serials);
}

const shortDate = (birth: CivilDate): string => pad(birth.day, 2) + pad(birth.month, 2) + pad(birth.year % 100, 2);

// Norwegian individual numbers (the 3 digits after the date) encode the century together with the year.
const NO_CENTURIES: readonly CenturyRule[] = [
  { serials: { from: 0, to: 499 }, years: { from: 0, to: 99 }, century: 1900 },
  { serials: { from: 500, to: 749 }, years: { from: 54, to: 99 }, century: 1800 },
  { serials: { from: 500, to: 999 }, years: { from: 0, to: 39 }, century: 2000 },
  { serials: { from: 900, to: 999 }, years: { from: 40, to: 99 }, century: 1900 },
];
const NO_WEIGHTS_1 = [3, 7, 6, 1, 8, 9, 4, 5, 2];
const NO_WEIGHTS_2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

// The CPR table: the 7th digit together with the two-digit year gives the century.
const DK_CENTURIES: readonly CenturyRule[] = [
  { serials: { from: 0, to: 3 }, years: { from: 0, to: 99 }, century: 1900 },
  { serials: { from: 4, to: 4 }, years: { from: 0, to: 36 }, century: 2000 },
  { serials: { from: 4, to: 4 }, years: { from: 37, to: 99 }, century: 1900 },
  { serials: { from: 5, to: 8 }, years: { from: 0, to: 57 }, century: 2000 },
  { serials: { from: 5, to: 8 }, years: { from: 58, to: 99 }, century: 1800 },
  { serials: { from: 9, to: 9 }, years: { from: 0, to: 36 }, century: 2000 },
  { serials: { from: 9, to: 9 }, years: { from: 37, to: 99 }, century: 1900 },
];
const DK_WEIGHTS = [4, 3, 2, 7, 6, 5, 4, 3, 2];

// The FI shape admits only the century signs + (1800s), - and U–Y (1900s), A–F (2000s). Generated ids use the
// traditional signs only: the extra signs of 2023 are valid, but older systems may still reject them.
const fiCentury = (sign: string): number => (sign === '+' ? 1800 : /[A-F]/.test(sign) ? 2000 : 1900);
const FI_GENERATED_SIGNS: Readonly<Record<number, string>> = { 1800: '+', 1900: '-', 2000: 'A' };
const FI_CHECK_CHARACTERS = '0123456789ABCDEFHJKLMNPRSTUVWXY';
const FI_SERIALS: Range = { from: 2, to: 899 };
const fiCheckCharacter = (dateAndSerial: string): string => FI_CHECK_CHARACTERS[Number(dateAndSerial) % 31];

const FORMATS: Readonly<Record<Market, IdFormat>> = {
  SE: {
    name: 'Swedish personnummer',
    layout: '12 digits YYYYMMDDNNNC',
    shape: /^\d{12}$/,
    genderDigit: 10,
    coordinationDayOffset: 60,
    readBirth: (id) =>
      // The 12-digit form spells the century out; only those of living or recently registered people are plausible.
      /^(18|19|20)/.test(id)
        ? { year: Number(id.slice(0, 4)), month: Number(id.slice(4, 6)), day: Number(id.slice(6, 8)) }
        : `century ${id.slice(0, 2)} is not 18, 19 or 20`,
    checkProblem(id) {
      if (id.slice(8, 11) === '000') return 'birth number 000 is never assigned';
      const expected = luhnCheckDigit(id.slice(2, 11));
      return Number(id[11]) === expected ? undefined : `Luhn check digit should be ${expected}, not ${id[11]}`;
    },
    serials: () => [{ from: 1, to: 999 }],
    compose(birth, serial) {
      const body = pad(birth.year, 4) + pad(birth.month, 2) + pad(birth.day, 2) + pad(serial, 3);
      return body + luhnCheckDigit(body.slice(2));
    },
  },
  NO: {
    name: 'Norwegian fødselsnummer',
    layout: '11 digits DDMMYYIIIKK',
    shape: /^\d{11}$/,
    genderDigit: 8,
    // D-numbers (for people not in the population register) add 40 to the day.
    coordinationDayOffset: 40,
    readBirth: (id) => readShortDate(id, NO_CENTURIES, Number(id.slice(6, 9)), `individual number ${id.slice(6, 9)}`),
    checkProblem(id) {
      const first = mod11CheckDigit(id.slice(0, 9), NO_WEIGHTS_1);
      if (first === undefined) return 'the first control digit would be 10: no such number is issued';
      if (Number(id[9]) !== first) return `first control digit should be ${first}, not ${id[9]}`;
      const second = mod11CheckDigit(id.slice(0, 10), NO_WEIGHTS_2);
      if (second === undefined) return 'the second control digit would be 10: no such number is issued';
      return Number(id[10]) === second ? undefined : `second control digit should be ${second}, not ${id[10]}`;
    },
    serials: (year) => serialsFor(NO_CENTURIES, year),
    compose(birth, serial) {
      const body = shortDate(birth) + pad(serial, 3);
      const first = mod11CheckDigit(body, NO_WEIGHTS_1);
      if (first === undefined) return undefined;
      const second = mod11CheckDigit(body + first, NO_WEIGHTS_2);
      return second === undefined ? undefined : `${body}${first}${second}`;
    },
  },
  DK: {
    name: 'Danish CPR number',
    layout: '10 digits DDMMYYSSSS, no hyphen',
    shape: /^\d{10}$/,
    genderDigit: 9,
    readBirth: (id) => readShortDate(id, DK_CENTURIES, Number(id[6]), `7th digit ${id[6]}`),
    // The modulus-11 check has not been mandatory since 2007 (CPR ran out of such numbers for some dates), so it is
    // not asked for; generated numbers still satisfy it, so they also pass older validators.
    checkProblem: () => undefined,
    // The serial is the first three digits of SSSS; the fourth is the modulus-11 digit.
    serials: (year) =>
      serialsFor(DK_CENTURIES, year).map((digits) => ({ from: digits.from * 100, to: digits.to * 100 + 99 })),
    compose(birth, serial) {
      const body = shortDate(birth) + pad(serial, 3);
      const check = mod11CheckDigit(body, DK_WEIGHTS);
      return check === undefined ? undefined : `${body}${check}`;
    },
  },
  FI: {
    name: 'Finnish henkilötunnus',
    layout: 'DDMMYYCZZZQ (C a century sign, Q a check character)',
    shape: /^\d{6}[-+A-FU-Y]\d{3}[0-9A-FHJ-NPR-Y]$/,
    genderDigit: 9,
    readBirth: (id) => ({
      year: fiCentury(id[6]) + Number(id.slice(4, 6)),
      month: Number(id.slice(2, 4)),
      day: Number(id.slice(0, 2)),
    }),
    checkProblem(id) {
      if (!inRange(Number(id.slice(7, 10)), FI_SERIALS))
        return `individual number ${id.slice(7, 10)} is outside 002–899`;
      const expected = fiCheckCharacter(id.slice(0, 6) + id.slice(7, 10));
      return id[10] === expected ? undefined : `check character should be ${expected}, not ${id[10]}`;
    },
    serials: (year) => (FI_GENERATED_SIGNS[year - (year % 100)] === undefined ? [] : [FI_SERIALS]),
    compose(birth, serial) {
      const date = shortDate(birth);
      const sign = FI_GENERATED_SIGNS[birth.year - (birth.year % 100)];
      return `${date}${sign}${pad(serial, 3)}${fiCheckCharacter(date + pad(serial, 3))}`;
    },
  },
};

// Day 0 of the next month is the last of this one; setUTCFullYear, unlike Date.UTC, takes years below 100 as they are.
const daysInMonth = (year: number, month: number) => new Date(new Date(0).setUTCFullYear(year, month, 0)).getUTCDate();

const isCalendarDate = ({ year, month, day }: CivilDate) =>
  month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

const isoDate = ({ year, month, day }: CivilDate) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

const genderIn = (format: IdFormat, id: string): Gender =>
  Number(id[format.genderDigit]) % 2 === 1 ? 'Male' : 'Female';

/** A valid id's date of birth (coordination offset removed) and gender, or why `value` is not a valid id. */
export function readLegalId(market: Market, value: unknown): Identity | string {
  const format = FORMATS[market];
  if (typeof value !== 'string' || !format.shape.test(value))
    return `expected a ${format.name} (${format.layout}), got ${JSON.stringify(value)}`;
  const encoded = format.readBirth(value);
  if (typeof encoded === 'string') return `${format.name} ${value}: ${encoded}`;
  const offset = format.coordinationDayOffset;
  const birth = offset !== undefined && encoded.day > offset ? { ...encoded, day: encoded.day - offset } : encoded;
  const problem = isCalendarDate(birth)
    ? format.checkProblem(value)
    : `encodes the date of birth ${isoDate(encoded)}, which does not exist`;
  if (problem !== undefined) return `${format.name} ${value}: ${problem}`;
  return { legalId: value, dateOfBirth: isoDate(birth), gender: genderIn(format, value) };
}

// Each serial fits one gender about half of the time (DK also skips serials without a check
// digit), so failing this many draws means the random source is broken, not unlucky.
const MAX_DRAWS = 1000;

function drawSerial(ranges: readonly Range[], random: () => number): number {
  const total = ranges.reduce((sum, range) => sum + range.to - range.from + 1, 0);
  let position = Math.floor(random() * total);
  for (const range of ranges) {
    const size = range.to - range.from + 1;
    if (position < size) return range.from + position;
    position -= size;
  }
  throw new RangeError(`random() must return a number in [0, 1)`);
}

/**
 * Reproducible legal ids (same market and random sequence: same ids) that never repeat within one generator; birth
 * dates default to fixed years (all adults), not an age relative to today, so a seed gives the same data on any day.
 */
export class LegalIdGenerator {
  readonly #issued = new Set<string>();

  /** `random` (numbers in [0, 1), e.g. `seededRandom` of support/data/factories.ts) decides every draw. */
  constructor(
    readonly market: Market,
    private readonly random: () => number,
    readonly birthYears: Readonly<Range> = { from: 1940, to: 2005 },
  ) {}

  /** `coordination`: an SE coordination number (day + 60) or NO D-number (day + 40); DK and FI have none. */
  next(wish: { dateOfBirth?: string; gender?: Gender; coordination?: boolean } = {}): Identity {
    for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
      const dateOfBirth = wish.dateOfBirth ?? this.#randomBirthDate();
      const gender = wish.gender ?? (this.random() < 0.5 ? 'Female' : 'Male');
      const legalId = this.#newLegalId(dateOfBirth, gender, wish.coordination);
      if (!this.#issued.has(legalId)) {
        this.#issued.add(legalId);
        return { legalId, dateOfBirth, gender };
      }
    }
    throw new Error(`no unused ${this.market} legal id left for ${JSON.stringify(wish)} after ${MAX_DRAWS} draws`);
  }

  /** A valid legal id for the birth date (YYYY-MM-DD) and gender; the random source chooses the serial. */
  #newLegalId(dateOfBirth: string, gender: Gender, coordination = false): string {
    const format = FORMATS[this.market];
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
    const birth = match && { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    if (!birth || !isCalendarDate(birth))
      throw new RangeError(`dateOfBirth must be a real date YYYY-MM-DD, got ${JSON.stringify(dateOfBirth)}`);
    const offset = format.coordinationDayOffset;
    if (coordination && offset === undefined) throw new RangeError(`${this.market} has no coordination numbers`);
    const encoded = coordination ? { ...birth, day: birth.day + (offset ?? 0) } : birth;
    const ranges = format.serials(birth.year);
    if (ranges.length === 0) throw new RangeError(`a ${format.name} cannot encode the birth year ${birth.year}`);
    for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
      const id = format.compose(encoded, drawSerial(ranges, this.random));
      if (id !== undefined && genderIn(format, id) === gender) return id;
    }
    throw new Error(`no ${format.name} found for ${dateOfBirth} (${gender}) in ${MAX_DRAWS} draws`);
  }

  #randomBirthDate(): string {
    const pick = (from: number, to: number) => from + Math.floor(this.random() * (to - from + 1));
    const year = pick(this.birthYears.from, this.birthYears.to);
    const month = pick(1, 12);
    return isoDate({ year, month, day: pick(1, daysInMonth(year, month)) });
  }
}
