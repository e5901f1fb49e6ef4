import { legalIdProblem, type Market } from './legal-ids.js';
import { badRequest, wrongJsonType } from './errors.js';

/**
 * The shapes the simulator accepts, taken from the Resources section of the documentation and
 * the bounds the vendor's sandbox-service reference publishes (../../shared/vendor-public-notes.md).
 *
 * Why not the suite's schemas/*.schema.json: the simulator is the oracle the suite is tested
 * against, so it keeps its own reading of the documentation; a mistake in a shared schema would
 * otherwise hide on both sides at once. Fields the documentation does not list are accepted and
 * stored as sent (the complete list of fields is "not shown").
 */
export type Shape =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'date'
  | 'string-or-null'
  /** A string of `min` (default 0) to `max` characters; `nullable` also takes null. */
  | { text: { min?: number; max: number }; nullable?: boolean }
  /** A string that is one of `values`. */
  | { oneOf: readonly string[] }
  /** A string matching `pattern`, which `means` describes for the error message. */
  | { pattern: RegExp; means: string }
  | { array: Shape; maxItems?: number; nullable?: boolean }
  | { object: Record<string, Shape>; required?: readonly string[] };

/**
 * The vendor's published input bounds (sandbox-service reference): person `id` at most 15
 * characters; name strings and `legalId` at most 100; `firstNames` at most 10; consumer uploads of
 * at most 100 (Consumer Intelligence guides). The consumer id bound is the simulator's guess: the
 * pages give none, so it takes the person id's.
 */
export const BOUNDS = {
  personId: 15,
  consumerId: 15,
  name: 100,
  legalId: 100,
  firstNames: 10,
  consumersPerUpload: 100,
} as const;

/** The booleans one variant of the vendor's reference marks as required (SIMULATOR_STRICT_BOOLEANS). */
export const STRICT_BOOLEANS = [
  'removed',
  'deregistered',
  'protectedIdentity',
  'socialSecurityNumberTemporary',
] as const;

const NAME: Shape = { text: { max: BOUNDS.name } };
const LEGAL_ID: Shape = { text: { max: BOUNDS.legalId } };
const GENDER: Shape = { oneOf: ['Male', 'Female', 'Other', 'Unknown'] };
/** "Only one of them may be set, the other must be null": both take null. */
const NAME_FIELDS = {
  firstName: { text: { max: BOUNDS.name }, nullable: true },
  firstNames: { array: NAME, maxItems: BOUNDS.firstNames, nullable: true },
  preferredFirstName: NAME,
  additionalName: NAME,
  familyName: NAME,
} as const satisfies Record<string, Shape>;

export const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];

const validityPeriod: Shape = {
  object: {
    startDate: 'date',
    startYear: 'integer',
    startMonth: 'integer',
    startDay: 'integer',
    endDate: 'date',
    endYear: 'integer',
    endMonth: 'integer',
    endDay: 'integer',
  },
};

const deprecatedLegalId: Shape = {
  object: {
    socialSecurityNumber: LEGAL_ID,
    socialSecurityNumberTemporary: 'boolean',
    socialSecurityNumberValidityPeriod: validityPeriod,
  },
};

const address: Shape = {
  object: Object.fromEntries(
    [
      'type',
      'subType',
      'restricted',
      'postOfficeBox',
      'careOf',
      'streetName',
      'streetNumber',
      'postalCode',
      'city',
      'floor',
      'entrance',
      'apartment',
      'county',
      'countyCode',
      'municipality',
      'municipalityCode',
      'district',
      'districtCode',
      'dispatchingInformation',
      'country',
    ].map((name) => [name, 'string' as const]),
  ),
};

const phone: Shape = { object: { type: 'string', number: 'string', telemarketingRestriction: 'boolean' } };

const relationship: Shape = {
  object: {
    hierarchicalRelationship: 'string',
    nonHierarchicalRelationship: 'string-or-null',
    startDate: 'date',
    endDate: 'date',
    legalId: deprecatedLegalId,
    ...NAME_FIELDS,
    dateOfBirth: 'date',
    dateOfDeath: 'date',
    deceased: 'boolean',
    gender: 'string',
    citizenship: { array: 'string' },
    deregistered: 'boolean',
    deregisteredReason: 'string',
  },
};

export const sandboxPerson = {
  object: {
    id: { text: { min: 1, max: BOUNDS.personId } },
    country: { pattern: /^[A-Z]{2}$/, means: 'two upper-case letters' },
    legalId: LEGAL_ID,
    ...NAME_FIELDS,
    gender: GENDER,
    dateOfBirth: 'date',
    dateOfDeath: 'date',
    protectedIdentity: 'boolean',
    removed: 'boolean',
    deregistered: 'boolean',
    deregisteredReason: 'string-or-null',
    deregisteredDate: 'date',
    deregisteredYear: 'string',
    deregisteredMonth: 'string',
    deregisteredDay: 'string',
    socialSecurityNumberTemporary: 'boolean',
    socialSecurityNumberValidityPeriod: validityPeriod,
    deprecatedLegalIds: { array: deprecatedLegalId },
    diplomaticImmunity: 'boolean',
    addressList: { array: address },
    phoneList: { array: phone },
    directMarketingRestriction: 'boolean',
    charityMarketingRestriction: 'boolean',
    onlineMarketingRestriction: 'boolean',
    futureAuthorization: 'boolean',
    identificationClaim: 'boolean',
    citizenship: { array: 'string' },
    relationshipList: { array: relationship },
    merged: { object: { gedi: 'string' }, required: ['gedi'] },
  },
  required: ['id', 'country', 'dateOfBirth'],
} as const satisfies Shape;

/** DELETE with only `id`: the documented way to delete a person carries no other field. */
const personIdOnly = { object: { id: sandboxPerson.object.id }, required: ['id'] } as const satisfies Shape;

export const consumer = {
  object: {
    consumerId: { text: { min: 1, max: BOUNDS.consumerId } },
    market: 'string',
    data: { object: { legalId: 'string' }, required: ['legalId'] },
  },
  required: ['consumerId', 'market', 'data'],
} as const satisfies Shape;

function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type ScalarShape = Extract<Shape, string>;

function checkScalar(value: unknown, shape: ScalarShape, field: string): void {
  const ok = {
    string: typeof value === 'string',
    boolean: typeof value === 'boolean',
    integer: Number.isInteger(value),
    date: typeof value === 'string' && isRealDate(value),
    'string-or-null': value === null || typeof value === 'string',
  }[shape];
  if (!ok)
    throw badRequest(
      field,
      `expected ${shape === 'date' ? 'a real date YYYY-MM-DD' : `a value of type ${shape}`}, got ` +
        `${JSON.stringify(value)}`,
      { value },
    );
}

function checkString(
  value: unknown,
  shape: Exclude<Shape, ScalarShape | { array: Shape } | { object: Record<string, Shape> }>,
  field: string,
): void {
  if (typeof value !== 'string') throw badRequest(field, `expected a string, got ${JSON.stringify(value)}`, { value });
  if ('text' in shape) {
    const { min = 0, max } = shape.text;
    if (value.length < min)
      throw badRequest(field, min === 1 ? 'must not be empty' : `expected at least ${min} characters`, { value });
    if (value.length > max) throw badRequest(field, `at most ${max} characters, got ${value.length}`, { value });
  } else if ('oneOf' in shape) {
    if (!shape.oneOf.includes(value))
      throw badRequest(field, `expected one of ${shape.oneOf.join(', ')}, got ${JSON.stringify(value)}`, { value });
  } else if (!shape.pattern.test(value)) {
    throw badRequest(field, `expected ${shape.means}, got ${JSON.stringify(value)}`, { value });
  }
}

/** Throws a 400 naming the first field (as a path, e.g. `relationshipList[0].dateOfDeath`) that does not fit. */
export function checkShape(value: unknown, shape: Shape, field: string): void {
  if (typeof shape === 'string') return checkScalar(value, shape, field);
  if ('nullable' in shape && shape.nullable && value === null) return;
  if ('array' in shape) {
    if (!Array.isArray(value)) throw badRequest(field, `expected an array, got ${JSON.stringify(value)}`, { value });
    if (shape.maxItems !== undefined && value.length > shape.maxItems)
      throw badRequest(field, `at most ${shape.maxItems} entries, got ${value.length}`, { value });
    value.forEach((item, index) => checkShape(item, shape.array, `${field}[${index}]`));
    return;
  }
  if (!('object' in shape)) return checkString(value, shape, field);
  if (!isObject(value))
    throw field === 'body'
      ? wrongJsonType('an object', value)
      : badRequest(field, `expected an object, got ${JSON.stringify(value)}`, { value });
  const prefix = field === 'body' ? '' : `${field}.`;
  for (const name of shape.required ?? []) {
    if (value[name] === undefined) throw badRequest(`${prefix}${name}`, 'is required', { value: null });
  }
  for (const [name, inner] of Object.entries(shape.object)) {
    if (value[name] !== undefined) checkShape(value[name], inner, `${prefix}${name}`);
  }
}

/** "Only one of them may be set, the other must be null" (vendor's sandbox reference). */
function checkOneFirstNameField(record: Record<string, unknown>, prefix: string): void {
  const set = (name: string) => record[name] !== undefined && record[name] !== null;
  if (set('firstName') && set('firstNames'))
    throw badRequest(
      `${prefix}firstName`,
      'only one of firstName and firstNames may be set; leave the other out or null',
      { value: record.firstName },
    );
}

export function checkMarket(value: unknown, field: string): Market {
  if (!MARKETS.includes(value as Market))
    throw badRequest(field, `expected one of the markets ${MARKETS.join(', ')}, got ${JSON.stringify(value)}`, {
      value,
    });
  return value as Market;
}

export function checkLegalId(market: Market, value: unknown, field: string): void {
  const problem = legalIdProblem(market, value);
  if (problem !== undefined) throw badRequest(field, problem, { value });
}

export interface PersonBodyRules {
  /** The four booleans of STRICT_BOOLEANS are required (a PUT under SIMULATOR_STRICT_BOOLEANS). */
  strictBooleans?: boolean;
}

/**
 * A sandbox person body (a PUT, or a DELETE marking it removed): documented shapes, the vendor's
 * bounds, a known market and a legal id valid in it.
 */
export function checkSandboxPerson(
  body: unknown,
  rules: PersonBodyRules = {},
): asserts body is Record<string, unknown> & { id: string } {
  checkShape(body, sandboxPerson, 'body');
  const person = body as Record<string, unknown>;
  for (const name of rules.strictBooleans ? STRICT_BOOLEANS : []) {
    if (person[name] === undefined)
      throw badRequest(name, 'is required (a boolean: false where it does not apply)', { value: null });
  }
  checkOneFirstNameField(person, '');
  if (Array.isArray(person.relationshipList))
    person.relationshipList.forEach((entry: Record<string, unknown>, index) =>
      checkOneFirstNameField(entry, `relationshipList[${index}].`),
    );
  const market = checkMarket(person.country, 'country');
  if (person.legalId !== undefined) checkLegalId(market, person.legalId, 'legalId');
}

/** Operation 2's body: only `id` deletes (nothing else is required then); anything more is a person marked removed. */
export function checkPersonDeletion(body: unknown): asserts body is Record<string, unknown> & { id: string } {
  if (isObject(body) && Object.keys(body).length === 1) return checkShape(body, personIdOnly, 'body');
  checkSandboxPerson(body);
}
