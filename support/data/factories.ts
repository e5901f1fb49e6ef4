// Owns the test data: persons, relatives and consumers, consistent (legal id, birth date, gender, names and market
// agree) and reproducible (same seed and scope, same data); one factory per test, so a new test changes no other's.
import { createHash } from 'node:crypto';
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { faker as base } from '@faker-js/faker/locale/base';
import { faker as danish } from '@faker-js/faker/locale/da';
import { faker as finnish } from '@faker-js/faker/locale/fi';
import { faker as norwegian } from '@faker-js/faker/locale/nb_NO';
import { faker as swedish } from '@faker-js/faker/locale/sv';
import { LegalIdGenerator, readLegalId, type Gender, type Market } from './legal-ids.js';
import { containsValue } from '../readings/json.js';

/** An element of relationshipList: the fields the suite sets or reads; the sandbox-person schema checks the others. */
export interface Relationship {
  hierarchicalRelationship?: string;
  legalId?: { socialSecurityNumber?: string };
  firstNames?: string[];
  preferredFirstName?: string;
  familyName?: string;
  dateOfBirth?: string;
  dateOfDeath?: string;
  gender?: string;
  deregistered?: boolean;
  deregisteredReason?: string;
  [documented: string]: unknown;
}

/** The documented sandbox person: the fields the suite sets or reads; the schema declares and checks the others. */
export interface SandboxPerson {
  id: string;
  country: string;
  legalId: string;
  dateOfBirth: string;
  firstName?: string;
  firstNames?: string[];
  preferredFirstName?: string;
  familyName?: string;
  gender?: Gender;
  addressList?: Record<string, string>[];
  phoneList?: { type?: string; number?: string; telemarketingRestriction?: boolean }[];
  citizenship?: string[];
  relationshipList?: Relationship[];
  merged?: { gedi: string };
  [documented: string]: unknown;
}

/** An element of the consumer upload (schemas/consumer.schema.json). */
export interface Consumer {
  consumerId: string;
  market: string;
  data: { legalId: string };
}

// What faker's languages do not get right for our purpose: a postal code pattern (for faker.helpers.fromRegExp), and
// mobile numbers as the country calling code, a mobile prefix, then random digits.
const MARKET_DATA = {
  SE: {
    postalCode: '[1-9][0-9]{4}',
    mobile: { countryCode: '46', prefixes: ['70', '72', '73', '76', '79'], digits: 7 },
  },
  NO: { postalCode: '[0-9]{4}', mobile: { countryCode: '47', prefixes: ['4', '9'], digits: 7 } },
  DK: {
    postalCode: '[1-9][0-9]{3}',
    mobile: { countryCode: '45', prefixes: ['20', '30', '40', '50', '60'], digits: 6 },
  },
  FI: { postalCode: '[0-9]{5}', mobile: { countryCode: '358', prefixes: ['40', '41', '44', '45', '50'], digits: 7 } },
} satisfies Record<Market, unknown>;

// Fixed ranges, not ages relative to today, so a seed gives the same data on any day: persons are adults, parents
// 20 years older than any person, and "past" dates (deaths, deregistrations) fall after every birth and before today.
const PERSON_BIRTH = { from: '1975-01-01', to: '2005-12-31' };
const PARENT_BIRTH = { from: '1925-01-01', to: '1955-12-31' };
const PAST = { from: '2006-01-01', to: '2023-12-31' };

// Locale entries, not faker's main entry, which loads all locales (a tenth of a second per contract worker): each
// exports an instance falling back to English and base, as `new Faker({ locale: [sv, en, base] })` would, whose class
// makes independent, separately seeded ones.
const TEMPLATES: Readonly<Record<Market | 'base', Faker>> = {
  SE: swedish,
  NO: norwegian,
  DK: danish,
  FI: finnish,
  base,
};

/** A new faker of the market's language (or only faker's base data), seeded with `seed`. */
function newFaker(market: Market | 'base', seed: number): Faker {
  const template = TEMPLATES[market];
  const FakerClass = template.constructor as new (options: { locale: LocaleDefinition }) => Faker;
  const faker = new FakerClass({ locale: template.rawDefinitions });
  faker.seed(seed);
  return faker;
}

/** Numbers in [0, 1), the same sequence for the same seed: the suite's one seeded random source (for legal ids). */
export function seededRandom(seed: number): () => number {
  const faker = newFaker('base', seed);
  return () => faker.number.float();
}

/** A stable 32-bit hash of a string, for seeds and the short scope tag. */
const hash32 = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0);

const issued = new Map<string, number>();

/**
 * `p` or `c`, the run's id without its `r` (nine characters), the worker (vitest's pool id) and a sequence in base 36:
 * unique and traceable to the run. Per run, not per test: 15 characters leave no room for a collision-free test hash.
 */
export function newId(kind: 'p' | 'c', runId: string): string {
  const runTag = runId
    .replace(/[^A-Za-z0-9]+/g, '')
    .toLowerCase()
    .replace(/^r/, '')
    .slice(-9)
    .padStart(9, '0');
  const worker = Number(process.env.VITEST_POOL_ID ?? 0) % 36;
  const key = `${runTag}${kind}`;
  const sequence = (issued.get(key) ?? 0) + 1;
  issued.set(key, sequence);
  const id = `${kind}${runTag}${worker.toString(36)}${sequence.toString(36).padStart(4, '0')}`;
  // 15 characters: the longest person `id` the vendor's sandbox reference allows; consumer ids are kept as short.
  if (id.length > 15)
    throw new Error(`run ${runId} has used up its ${36 ** 4 - 1} ${kind === 'p' ? 'person' : 'consumer'} ids`);
  return id;
}

/** `scope` says what the data is for (a test's name): different scopes give independent data. */
export function createDataFactory(options: { seed: number; runId: string; market: Market; scope: string }) {
  const { seed, runId, market, scope } = options;
  // Separate streams: a change in how names are drawn must not change which legal ids are drawn.
  const faker = newFaker(market, hash32(`${seed}|${scope}|faker`));
  const legalIds = new LegalIdGenerator(market, seededRandom(hash32(`${seed}|${scope}|legal-ids`)));
  // Free text that a test sends and later recognises in a record (never an id: see newId).
  const tag = `${runId.replace(/[^A-Za-z0-9]+/g, '-')}-${hash32(scope).toString(36).padStart(7, '0')}`;
  const isoDateBetween = ({ from, to }: typeof PAST) =>
    faker.date
      .between({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })
      .toISOString()
      .slice(0, 10);
  const { postalCode, mobile } = MARKET_DATA[market];
  const mobileNumber = () =>
    `+${mobile.countryCode}${faker.helpers.arrayElement(mobile.prefixes)}${faker.string.numeric(mobile.digits)}`;
  const namesFor = (gender: Gender) => {
    const sex = gender === 'Male' ? 'male' : 'female';
    const count = faker.number.int({ min: 1, max: 2 });
    const firstNames = faker.helpers.uniqueArray(() => faker.person.firstName(sex), count);
    const preferredFirstName = faker.helpers.arrayElement(firstNames);
    return { firstNames, preferredFirstName, familyName: faker.person.lastName() };
  };

  /** Legal id, date of birth and gender that agree with each other and with what the caller fixed. */
  function identity(wish: { legalId?: string; dateOfBirth?: string; gender?: Gender }, birth: typeof PAST) {
    const given = readLegalId(market, wish.legalId);
    if (typeof given !== 'string') return given;
    return legalIds.next({
      dateOfBirth: wish.dateOfBirth ?? isoDateBetween(birth),
      gender: wish.gender ?? faker.helpers.arrayElement<Gender>(['Male', 'Female']),
    });
  }

  /** A family name that occurs nowhere in `avoiding`, so seeing it proves a change arrived. */
  function familyName(avoiding?: unknown): string {
    let name = faker.person.lastName();
    while (avoiding !== undefined && containsValue(avoiding, name)) name = faker.person.lastName();
    return name;
  }

  /** A parent (old enough for any person of this factory) with its own legal id. */
  function relationship(overrides: Relationship = {}): Relationship {
    const { legalId, dateOfBirth, gender } = identity({}, PARENT_BIRTH);
    return {
      hierarchicalRelationship: 'Parent',
      legalId: { socialSecurityNumber: legalId },
      ...namesFor(gender),
      dateOfBirth,
      gender,
      ...overrides,
    };
  }

  /** A full, consistent person; overrides win, and a fixed legalId, dateOfBirth or gender is honoured by the others. */
  function person(overrides: Partial<SandboxPerson> = {}): SandboxPerson {
    const { legalId, dateOfBirth, gender } = identity(overrides, PERSON_BIRTH);
    return {
      id: newId('p', runId),
      country: market,
      legalId,
      ...namesFor(gender),
      gender,
      dateOfBirth,
      addressList: [
        {
          type: 'Postal',
          subType: 'Domicile',
          streetName: faker.location.street(),
          streetNumber: faker.location.buildingNumber(),
          postalCode: faker.helpers.fromRegExp(postalCode),
          city: faker.location.city(),
          country: market,
        },
      ],
      phoneList: [{ type: 'Mobile', number: mobileNumber() }],
      citizenship: [market],
      directMarketingRestriction: false,
      charityMarketingRestriction: false,
      onlineMarketingRestriction: false,
      relationshipList: [relationship()],
      // One variant of the vendor's reference requires these; its full-import example sends them false.
      removed: false,
      deregistered: false,
      protectedIdentity: false,
      socialSecurityNumberTemporary: false,
      ...overrides,
    };
  }

  return {
    person,
    relationship,
    familyName,

    /** Like the documentation's first sandbox person example: a single `firstName` instead of `firstNames`. */
    firstSamplePerson(overrides: Partial<SandboxPerson> = {}): SandboxPerson {
      const { firstNames: _firstNames, preferredFirstName, ...rest } = person();
      return { ...rest, firstName: preferredFirstName, ...overrides };
    },

    consumer: (legalId: string, overrides: Partial<Consumer> = {}): Consumer => ({
      consumerId: newId('c', runId),
      market,
      data: { legalId },
      ...overrides,
    }),

    /** A valid legal id that no person or relative of this factory has. */
    unknownLegalId: (): string => legalIds.next().legalId,

    /** A gedi shaped like `like` (the same kinds of characters in the same places) but drawn anew. */
    unknownGedi(like: string): string {
      const redrawn = like
        .replace(/[0-9]/g, () => faker.string.numeric(1))
        .replace(/[a-z]/gi, (letter) =>
          faker.string.alpha({ casing: letter === letter.toUpperCase() ? 'upper' : 'lower' }),
        );
      // Only a gedi without letters and digits (or a one-in-ten draw for a one-digit gedi) comes back unchanged.
      return redrawn === like ? `${like}0` : redrawn;
    },

    /** A first and last name in the market's language, as the person screening request takes them. */
    personName: () => ({ firstName: faker.person.firstName(), lastName: faker.person.lastName() }),
    /** A client secret that cannot be the organization's: the prefix alone rules out any real secret without it. */
    wrongSecret: (): string => `wrong-${faker.string.alphanumeric(32)}`,
    /** A date after every birth date this factory draws and before today: for deaths and deregistrations. */
    pastDate: (): string => isoDateBetween(PAST),
    /** Reasons are free text (allowed values not shown); the tag makes the one a test sent recognisable. */
    deregistrationReason: (): string => `${faker.helpers.arrayElement(['Emigrated', 'Missing', 'Other'])} (${tag})`,
  };
}

export type DataFactory = ReturnType<typeof createDataFactory>;
