import { legalIdProblem, type Market } from './legal-ids.js';
import { badRequest, wrongJsonType } from './errors.js';

/**
 * The shapes the simulator accepts, taken from the Resources section of the documentation.
 *
 * Why not the suite's schemas/*.schema.json: the simulator is the oracle the suite is tested
 * against, so it keeps its own reading of the documentation; a mistake in a shared schema would
 * otherwise hide on both sides at once. Fields the documentation does not list are accepted and
 * stored as sent (required fields and allowed values are "not shown").
 */
export type Shape =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'date'
  | 'string-or-null'
  | { array: Shape }
  | { object: Record<string, Shape>; required?: readonly string[] };

export const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];

const validityPeriod: Shape = {
  object: {
    startDate: 'date', startYear: 'integer', startMonth: 'integer', startDay: 'integer',
    endDate: 'date', endYear: 'integer', endMonth: 'integer', endDay: 'integer',
  },
};

const deprecatedLegalId: Shape = {
  object: { socialSecurityNumber: 'string', socialSecurityNumberTemporary: 'boolean', socialSecurityNumberValidityPeriod: validityPeriod },
};

const address: Shape = {
  object: Object.fromEntries(
    ['type', 'subType', 'restricted', 'postOfficeBox', 'careOf', 'streetName', 'streetNumber', 'postalCode', 'city', 'floor', 'entrance',
      'apartment', 'county', 'countyCode', 'municipality', 'municipalityCode', 'district', 'districtCode', 'dispatchingInformation', 'country'].map(
      (name) => [name, 'string' as const],
    ),
  ),
};

const phone: Shape = { object: { type: 'string', number: 'string', telemarketingRestriction: 'boolean' } };

const relationship: Shape = {
  object: {
    hierarchicalRelationship: 'string', nonHierarchicalRelationship: 'string-or-null', startDate: 'date', endDate: 'date',
    legalId: deprecatedLegalId, firstNames: { array: 'string' }, firstName: 'string', preferredFirstName: 'string',
    additionalName: 'string', familyName: 'string', dateOfBirth: 'date', dateOfDeath: 'date', deceased: 'boolean',
    gender: 'string', citizenship: { array: 'string' }, deregistered: 'boolean', deregisteredReason: 'string',
  },
};

export const sandboxPerson = {
  object: {
    id: 'string', country: 'string', legalId: 'string', firstName: 'string', firstNames: { array: 'string' },
    preferredFirstName: 'string', additionalName: 'string', familyName: 'string', gender: 'string', dateOfBirth: 'date',
    dateOfDeath: 'date', protectedIdentity: 'boolean', removed: 'boolean', deregistered: 'boolean',
    deregisteredReason: 'string-or-null', deregisteredDate: 'date', deregisteredYear: 'string', deregisteredMonth: 'string',
    deregisteredDay: 'string', socialSecurityNumberTemporary: 'boolean', socialSecurityNumberValidityPeriod: validityPeriod,
    deprecatedLegalIds: { array: deprecatedLegalId }, diplomaticImmunity: 'boolean', addressList: { array: address },
    phoneList: { array: phone }, directMarketingRestriction: 'boolean', charityMarketingRestriction: 'boolean',
    onlineMarketingRestriction: 'boolean', futureAuthorization: 'boolean', identificationClaim: 'boolean',
    citizenship: { array: 'string' }, relationshipList: { array: relationship }, merged: { object: { gedi: 'string' }, required: ['gedi'] },
  },
  required: ['id'],
} as const satisfies Shape;

export const consumer = {
  object: { consumerId: 'string', market: 'string', data: { object: { legalId: 'string' }, required: ['legalId'] } },
  required: ['consumerId', 'market', 'data'],
} as const satisfies Shape;

function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkScalar(value: unknown, shape: Exclude<Shape, object>, field: string): void {
  const ok = {
    string: typeof value === 'string',
    boolean: typeof value === 'boolean',
    integer: Number.isInteger(value),
    date: typeof value === 'string' && isRealDate(value),
    'string-or-null': value === null || typeof value === 'string',
  }[shape];
  if (!ok) throw badRequest(field, `expected ${shape === 'date' ? 'a real date YYYY-MM-DD' : `a value of type ${shape}`}, got ${JSON.stringify(value)}`);
}

/** Throws a 400 naming the first field (as a path, e.g. `relationshipList[0].dateOfDeath`) that does not fit. */
export function checkShape(value: unknown, shape: Shape, field: string): void {
  if (typeof shape === 'string') return checkScalar(value, shape, field);
  if ('array' in shape) {
    if (!Array.isArray(value)) throw badRequest(field, `expected an array, got ${JSON.stringify(value)}`);
    value.forEach((item, index) => checkShape(item, shape.array, `${field}[${index}]`));
    return;
  }
  if (!isObject(value)) throw field === 'body' ? wrongJsonType('an object', value) : badRequest(field, `expected an object, got ${JSON.stringify(value)}`);
  const prefix = field === 'body' ? '' : `${field}.`;
  for (const name of shape.required ?? []) {
    if (value[name] === undefined) throw badRequest(`${prefix}${name}`, 'is required');
  }
  for (const [name, inner] of Object.entries(shape.object)) {
    if (value[name] !== undefined) checkShape(value[name], inner, `${prefix}${name}`);
  }
}

export function checkMarket(value: unknown, field: string): Market {
  if (!MARKETS.includes(value as Market)) throw badRequest(field, `expected one of the markets ${MARKETS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as Market;
}

export function checkLegalId(market: Market, value: unknown, field: string): void {
  const problem = legalIdProblem(market, value);
  if (problem !== undefined) throw badRequest(field, problem);
}

/** A sandbox person body: documented shapes, a known market and a legal id valid in it. */
export function checkSandboxPerson(body: unknown): asserts body is Record<string, unknown> & { id: string } {
  checkShape(body, sandboxPerson, 'body');
  const person = body as Record<string, unknown>;
  if (person.id === '') throw badRequest('id', 'must not be empty');
  const market = person.country === undefined ? 'SE' : checkMarket(person.country, 'country');
  if (person.legalId !== undefined) checkLegalId(market, person.legalId, 'legalId');
}
