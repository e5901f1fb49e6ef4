/**
 * The simulator's own check of national identity numbers, written apart from the suite's
 * generator (support/data/legal-ids.ts) on purpose: the server that judges the suite's data must not
 * share the code that made it, or one bug would fool both. SE is checked by the `personnummer`
 * package; NO, DK and FI are written here from their published rules, in a plain style of their own.
 */
import Personnummer from 'personnummer';
import type { Random } from './random.js';

export type Market = 'SE' | 'NO' | 'DK' | 'FI';

const digits = (text: string): number[] => [...text].map(Number);

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function weightedSum(values: number[], weights: number[]): number {
  return weights.reduce((sum, weight, index) => sum + weight * values[index], 0);
}

/** 12 digits YYYYMMDDNNNC, coordination numbers (day + 60) included, as the personnummer package reads them. */
function swedishProblem(value: string): string | undefined {
  if (!/^(18|19|20)\d{10}$/.test(value)) return 'expected 12 digits YYYYMMDDNNNC (century 18, 19 or 20)';
  if (value.slice(8, 11) === '000') return 'birth number 000 is never assigned';
  return Personnummer.valid(value) ? undefined : 'not a valid personnummer (date or Luhn check digit)';
}

/** 11 digits DDMMYYIIIKK; D-numbers add 40 to the day; the individual number decides the century. */
function norwegianProblem(value: string): string | undefined {
  if (!/^\d{11}$/.test(value)) return 'expected 11 digits DDMMYYIIIKK';
  let day = Number(value.slice(0, 2));
  if (day > 40) day -= 40;
  const month = Number(value.slice(2, 4));
  const yy = Number(value.slice(4, 6));
  const individual = Number(value.slice(6, 9));
  let century: number | undefined;
  if (individual <= 499) century = 1900;
  else if (individual <= 749 && yy >= 54) century = 1800;
  else if (individual >= 900 && yy >= 40) century = 1900;
  else if (yy <= 39) century = 2000;
  if (century === undefined) return `individual number ${value.slice(6, 9)} is not used with year ${value.slice(4, 6)}`;
  if (!realDate(century + yy, month, day)) return 'the date of birth does not exist';
  const d = digits(value);
  const k1 = (11 - (weightedSum(d, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11)) % 11;
  const k2 = (11 - (weightedSum([...d.slice(0, 9), k1], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
  if (k1 === 10 || k1 !== d[9]) return 'first control digit is wrong';
  if (k2 === 10 || k2 !== d[10]) return 'second control digit is wrong';
  return undefined;
}

/** 10 digits DDMMYYSSSS; the 7th digit with the year decides the century; no modulus-11 check since 2007. */
function danishProblem(value: string): string | undefined {
  if (!/^\d{10}$/.test(value)) return 'expected 10 digits DDMMYYSSSS without a hyphen';
  const yy = Number(value.slice(4, 6));
  const seventh = Number(value[6]);
  let century = 1900;
  if (seventh === 4 || seventh === 9) century = yy <= 36 ? 2000 : 1900;
  else if (seventh >= 5 && seventh <= 8) century = yy <= 57 ? 2000 : 1800;
  return realDate(century + yy, Number(value.slice(2, 4)), Number(value.slice(0, 2)))
    ? undefined
    : 'the date of birth does not exist';
}

const FINNISH_CHECK = '0123456789ABCDEFHJKLMNPRSTUVWXY';
const FINNISH_CENTURY: Record<string, number> = {
  '+': 1800,
  '-': 1900,
  U: 1900,
  V: 1900,
  W: 1900,
  X: 1900,
  Y: 1900,
  A: 2000,
  B: 2000,
  C: 2000,
  D: 2000,
  E: 2000,
  F: 2000,
};

/** DDMMYYCZZZQ: a century sign, an individual number 002–899 and a check character (mod 31). */
function finnishProblem(value: string): string | undefined {
  const match = /^(\d{2})(\d{2})(\d{2})(.)(\d{3})(.)$/.exec(value);
  const century = match ? FINNISH_CENTURY[match[4]] : undefined;
  if (!match || century === undefined) return 'expected DDMMYYCZZZQ with a century sign';
  const [, dd, mm, yy, , zzz, check] = match;
  const individual = Number(zzz);
  if (individual < 2 || individual > 899) return 'individual number outside 002–899';
  if (FINNISH_CHECK[Number(`${dd}${mm}${yy}${zzz}`) % 31] !== check) return 'the check character is wrong';
  return realDate(century + Number(yy), Number(mm), Number(dd)) ? undefined : 'the date of birth does not exist';
}

const CHECKS: Record<Market, (value: string) => string | undefined> = {
  SE: swedishProblem,
  NO: norwegianProblem,
  DK: danishProblem,
  FI: finnishProblem,
};

/** Why `value` is not a legal id of `market` (for a 400 message), or undefined when it is one. */
export function legalIdProblem(market: Market, value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a string, got ${JSON.stringify(value)}`;
  const problem = CHECKS[market](value);
  return problem === undefined ? undefined : `${JSON.stringify(value)} is not a ${market} legal id: ${problem}`;
}

/** A Swedish personnummer for the background records: a real date in `years`, a random serial, the Luhn digit. */
export function swedishLegalId(
  random: Random,
  years: { from: number; to: number },
): { legalId: string; dateOfBirth: string; gender: 'Male' | 'Female' } {
  const year = years.from + Math.floor(random() * (years.to - years.from + 1));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const serial = 1 + Math.floor(random() * 999);
  const date = `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
  const body = `${date.slice(2)}${String(serial).padStart(3, '0')}`;
  const luhn = digits(body).reduce((sum, digit, index) => {
    const value = index % 2 === 0 ? digit * 2 : digit;
    return sum + (value > 9 ? value - 9 : value);
  }, 0);
  return {
    legalId: `${date}${String(serial).padStart(3, '0')}${(10 - (luhn % 10)) % 10}`,
    dateOfBirth: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}`,
    // The last digit of the serial is odd for men.
    gender: serial % 2 === 1 ? 'Male' : 'Female',
  };
}
