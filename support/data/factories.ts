// Owns the test data: consistent, reproducible sandbox persons, relatives and consumers per test.
/**
 * Test data: sandbox persons, relatives and consumers that are internally consistent (the legal
 * id agrees with the date of birth and gender, names follow the gender, address and phone belong
 * to the market) and reproducible (same seed and scope: same data).
 *
 * One factory per test (the scope is the test's name), so adding a test never changes another
 * test's data. Ids carry the run id, so whatever a run leaves in a shared sandbox is traceable.
 *
 * Everything stays inside the bounds of the documentation, its samples and the vendor's published
 * pages (../shared/vendor-public-notes.md), which schemas/sandbox-person.schema.json and
 * schemas/consumer.schema.json carry and the verbs check before sending: ids of at most 15
 * characters, names of at most 100, one to two first names, never firstName beside firstNames,
 * and the four booleans one variant of the vendor's reference requires, sent as its full-import
 * example sends them (false where they do not apply).
 */
import { newFaker } from './fakers.js';
import { LegalIdGenerator, dateOfBirthOf, genderOf, isValidLegalId, type Gender, type Market } from './legal-ids.js';
import { containsValue } from '../readings/lookup.js';
import { seededRandom } from './random.js';

export interface ValidityPeriod {
  startDate?: string;
  startYear?: number;
  startMonth?: number;
  startDay?: number;
  endDate?: string;
  endYear?: number;
  endMonth?: number;
  endDay?: number;
}

export interface DeprecatedLegalId {
  socialSecurityNumber?: string;
  socialSecurityNumberTemporary?: boolean;
  socialSecurityNumberValidityPeriod?: ValidityPeriod;
}

export interface Address {
  type?: string;
  subType?: string;
  restricted?: string;
  postOfficeBox?: string;
  careOf?: string;
  streetName?: string;
  streetNumber?: string;
  postalCode?: string;
  city?: string;
  floor?: string;
  entrance?: string;
  apartment?: string;
  county?: string;
  countyCode?: string;
  municipality?: string;
  municipalityCode?: string;
  district?: string;
  districtCode?: string;
  dispatchingInformation?: string;
  country?: string;
}

export interface Phone {
  type?: string;
  number?: string;
  telemarketingRestriction?: boolean;
}

export interface Relationship {
  hierarchicalRelationship?: string;
  nonHierarchicalRelationship?: string | null;
  startDate?: string;
  endDate?: string;
  legalId?: DeprecatedLegalId;
  firstNames?: string[];
  firstName?: string;
  preferredFirstName?: string;
  additionalName?: string;
  familyName?: string;
  dateOfBirth?: string;
  dateOfDeath?: string;
  deceased?: boolean;
  gender?: string;
  citizenship?: string[];
  deregistered?: boolean;
  deregisteredReason?: string;
}

/** The documented sandbox person (schemas/sandbox-person.schema.json). */
export interface SandboxPerson {
  id: string;
  country: string;
  legalId: string;
  dateOfBirth: string;
  firstName?: string;
  firstNames?: string[];
  preferredFirstName?: string;
  additionalName?: string;
  familyName?: string;
  gender?: Gender;
  dateOfDeath?: string;
  protectedIdentity?: boolean;
  removed?: boolean;
  deregistered?: boolean;
  deregisteredReason?: string | null;
  deregisteredDate?: string;
  deregisteredYear?: string;
  deregisteredMonth?: string;
  deregisteredDay?: string;
  socialSecurityNumberTemporary?: boolean;
  socialSecurityNumberValidityPeriod?: ValidityPeriod;
  deprecatedLegalIds?: DeprecatedLegalId[];
  diplomaticImmunity?: boolean;
  addressList?: Address[];
  phoneList?: Phone[];
  directMarketingRestriction?: boolean;
  charityMarketingRestriction?: boolean;
  onlineMarketingRestriction?: boolean;
  futureAuthorization?: boolean;
  identificationClaim?: boolean;
  citizenship?: string[];
  relationshipList?: Relationship[];
  merged?: { gedi: string };
}

/** An element of the consumer upload (schemas/consumer.schema.json). */
export interface Consumer {
  consumerId: string;
  market: string;
  data: { legalId: string };
}

export interface DataFactoryOptions {
  seed: number;
  runId: string;
  market: Market;
  /** What the data is for (a test's name): different scopes give independent data. */
  scope?: string;
}

/** What differs per market besides faker's language: formats faker does not get right for our purpose. */
interface MarketData {
  /** A pattern for faker.helpers.fromRegExp. */
  postalCode: string;
  /** Mobile numbers: country calling code, a mobile prefix, then random digits. */
  mobile: { countryCode: string; prefixes: readonly string[]; digits: number };
}

const MARKET_DATA: Readonly<Record<Market, MarketData>> = {
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
};

// Fixed ranges instead of ages relative to today, so a seed reproduces the same data on any day.
// Persons are adults; parents are at least 20 years older than any person; "past" dates (deaths,
// deregistrations) fall after every birth date and before today.
const PERSON_BIRTH = { from: '1975-01-01', to: '2005-12-31' };
const PARENT_BIRTH = { from: '1925-01-01', to: '1955-12-31' };
const PAST = { from: '2006-01-01', to: '2023-12-31' };

/**
 * The booleans one variant of the vendor's reference requires, as its full-import example sends them where they do not
 * apply.
 */
const REQUIRED_FLAGS_UNSET = {
  removed: false,
  deregistered: false,
  protectedIdentity: false,
  socialSecurityNumberTemporary: false,
} as const;

const DEREGISTRATION_REASONS = ['Emigrated', 'Missing', 'Other'];

/** FNV-1a: a stable 32-bit hash of a string, for seeds and the short scope tag in ids. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const character of text) {
    hash ^= character.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const sexOf = (gender: Gender) => (gender === 'Male' ? 'male' : 'female');

/** The longest person `id` the vendor's sandbox reference allows; consumer ids are kept as short. */
export const MAX_ID_LENGTH = 15;

type IdKind = 'p' | 'c';
const issued = new Map<string, number>();

/**
 * `p` or `c`, the run's tag (its id without the `r`: the ledger and the report's environment name the
 * run), the worker (vitest's pool id, so workers of one run never collide) and a sequence in base
 * 36: 15 characters, unique within the run and across runs, traceable to the run at a glance.
 * Ids are drawn per run rather than per test: 15 characters leave no room for a test's hash that
 * could not collide with another test's.
 */
export function newId(kind: IdKind, runId: string): string {
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
  if (id.length > MAX_ID_LENGTH)
    throw new Error(`run ${runId} has used up its ${36 ** 4 - 1} ${kind === 'p' ? 'person' : 'consumer'} ids`);
  return id;
}

export function createDataFactory(options: DataFactoryOptions) {
  const { seed, market } = options;
  const scope = options.scope ?? '';
  const marketData = MARKET_DATA[market];
  // Separate streams: a change in how names are drawn must not change which legal ids are drawn.
  const faker = newFaker(market, fnv1a(`${seed}|${scope}|faker`));
  const legalIds = new LegalIdGenerator(market, seededRandom(fnv1a(`${seed}|${scope}|legal-ids`)));
  // Free text that a test sends and later recognises in a record (never an id: see newId).
  const tag = `${options.runId.replace(/[^A-Za-z0-9]+/g, '-')}-${fnv1a(scope).toString(36).padStart(7, '0')}`;
  const nextId = (kind: IdKind) => newId(kind, options.runId);
  const isoDateBetween = (range: { from: string; to: string }) =>
    faker.date
      .between({ from: `${range.from}T00:00:00Z`, to: `${range.to}T00:00:00Z` })
      .toISOString()
      .slice(0, 10);
  const randomGender = (): Gender => faker.helpers.arrayElement(['Male', 'Female']);
  const firstNamesFor = (gender: Gender) =>
    faker.helpers.uniqueArray(() => faker.person.firstName(sexOf(gender)), faker.number.int({ min: 1, max: 2 }));

  /** Legal id, date of birth and gender that agree with each other and with what the caller fixed. */
  function identity(
    wish: { legalId?: string; dateOfBirth?: string; gender?: Gender },
    birth: { from: string; to: string },
  ) {
    if (wish.legalId !== undefined && isValidLegalId(market, wish.legalId)) {
      return {
        legalId: wish.legalId,
        dateOfBirth: dateOfBirthOf(market, wish.legalId),
        gender: genderOf(market, wish.legalId),
      };
    }
    return legalIds.next({
      dateOfBirth: wish.dateOfBirth ?? isoDateBetween(birth),
      gender: wish.gender ?? randomGender(),
    });
  }

  function address(): Address {
    return {
      type: 'Postal',
      subType: 'Domicile',
      streetName: faker.location.street(),
      streetNumber: faker.location.buildingNumber(),
      postalCode: faker.helpers.fromRegExp(marketData.postalCode),
      city: faker.location.city(),
      country: market,
    };
  }

  function mobilePhone(): Phone {
    const { countryCode, prefixes, digits } = marketData.mobile;
    return {
      type: 'Mobile',
      number: `+${countryCode}${faker.helpers.arrayElement(prefixes)}${faker.string.numeric(digits)}`,
    };
  }

  const factory = {
    market,

    /**
     * A full, consistent sandbox person; overrides win, and a fixed legalId, dateOfBirth or gender is honoured by the
     * others.
     */
    person(overrides: Partial<SandboxPerson> = {}): SandboxPerson {
      const { legalId, dateOfBirth, gender } = identity(overrides, PERSON_BIRTH);
      const firstNames = firstNamesFor(gender);
      return {
        id: nextId('p'),
        country: market,
        legalId,
        firstNames,
        preferredFirstName: faker.helpers.arrayElement(firstNames),
        familyName: faker.person.lastName(),
        gender,
        dateOfBirth,
        addressList: [address()],
        phoneList: [mobilePhone()],
        citizenship: [market],
        directMarketingRestriction: false,
        charityMarketingRestriction: false,
        onlineMarketingRestriction: false,
        relationshipList: [factory.relationship()],
        ...REQUIRED_FLAGS_UNSET,
        ...overrides,
      };
    },

    /** Like the documentation's first sandbox person example: a single `firstName` instead of `firstNames`. */
    firstSamplePerson(overrides: Partial<SandboxPerson> = {}): SandboxPerson {
      const { firstNames: _firstNames, preferredFirstName, ...person } = factory.person();
      return { ...person, firstName: preferredFirstName, ...overrides };
    },

    /** A parent (old enough for any person of this factory) with its own legal id. */
    relationship(overrides: Relationship = {}): Relationship {
      const { legalId, dateOfBirth, gender } = identity({}, PARENT_BIRTH);
      const firstNames = firstNamesFor(gender);
      return {
        hierarchicalRelationship: 'Parent',
        legalId: { socialSecurityNumber: legalId },
        firstNames,
        preferredFirstName: faker.helpers.arrayElement(firstNames),
        familyName: faker.person.lastName(),
        dateOfBirth,
        gender,
        ...overrides,
      };
    },

    consumer(legalId: string, overrides: Partial<Consumer> = {}): Consumer {
      return { consumerId: factory.consumerId(), market, data: { legalId }, ...overrides };
    },

    /** A valid legal id that no person or relative of this factory has. */
    unknownLegalId(): string {
      return legalIds.next().legalId;
    },

    /**
     * A gedi shaped like `like` (same kinds of characters in the same places) but drawn anew, so no person is likely to
     * have it.
     */
    unknownGedi(like: string): string {
      const redrawn = like
        .replace(/[0-9]/g, () => faker.string.numeric(1))
        .replace(/[a-z]/gi, (letter) =>
          letter === letter.toUpperCase()
            ? faker.string.alpha({ casing: 'upper' })
            : faker.string.alpha({ casing: 'lower' }),
        );
      // Only a gedi without letters and digits (or a one-in-ten draw for a one-digit gedi) comes back unchanged.
      return redrawn === like ? `${like}0` : redrawn;
    },

    personId: (): string => nextId('p'),
    consumerId: (): string => nextId('c'),
    /** A family name that occurs nowhere in `avoiding`, so seeing it proves a change arrived. */
    familyName(avoiding?: unknown): string {
      let name = faker.person.lastName();
      while (avoiding !== undefined && containsValue(avoiding, name)) name = faker.person.lastName();
      return name;
    },
    /** A first and last name in the market's language, as the person screening request takes them. */
    personName: (): { firstName: string; lastName: string } => ({
      firstName: faker.person.firstName(),
      lastName: faker.person.lastName(),
    }),
    /**
     * A client secret that cannot be the organization's: the prefix alone rules it out for any real secret without it.
     */
    wrongSecret: (): string => `wrong-${faker.string.alphanumeric(32)}`,
    /** A date after every birth date this factory draws and before today: for deaths and deregistrations. */
    pastDate: (): string => isoDateBetween(PAST),
    /** Reasons are free text (allowed values not shown); the tag makes the one a test sent recognisable in a record. */
    deregistrationReason: (): string => `${faker.helpers.arrayElement(DEREGISTRATION_REASONS)} (${tag})`,
  };
  return factory;
}

export type DataFactory = ReturnType<typeof createDataFactory>;
