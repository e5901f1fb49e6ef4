// Owns the AML screening verbs: operations 8 and 9 and the sandbox test references.
import type { ContractConfig } from '../run/config.js';
import type { ApiClient, ApiResponse } from '../transport/http.js';
import { expectSchema } from '../readings/schemas.js';

/** The sandbox references that select predefined test cases (Resources: Screening request). */
export const TEST_REFERENCES = {
  politician: 'person_test_case_01',
  firstCompany: 'company_test_case_01',
  secondCompany: 'company_test_case_02',
} as const;

const VERSIONED = /^\/aml-real-time-screening\/v2\//;

/**
 * Versioning: the same path without the version segment, under /aml-real-time-screening/; undefined for a path not
 * under the versioned form (one the vendor's other pages give), whose root form the documentation does not define.
 */
export function rootForm(path: string): string | undefined {
  return VERSIONED.test(path) ? path.replace(VERSIONED, '/aml-real-time-screening/') : undefined;
}

/**
 * Keys that name an identifier or a moment, and so may differ between two calls of one test case: whole names (`id`,
 * `timestamp`) or a camelCase / snake_case name whose last word is one (`screeningId`, `created_at`, `requestUUID`).
 * Never a part of another word: `candidates`, `validated` and `format` are compared like everything else.
 */
const VOLATILE_LAST_WORDS = new Set(['id', 'uuid', 'guid', 'timestamp', 'at', 'time', 'datetime']);
const VOLATILE_NAMES = new Set([...VOLATILE_LAST_WORDS, 'date', 'created', 'updated']);

function isVolatileKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
  return VOLATILE_NAMES.has(words.join('')) || VOLATILE_LAST_WORDS.has(words.at(-1) ?? '');
}

/** Values recognised by their form as an identifier or a moment. */
const VOLATILE_VALUES = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
];

/**
 * The result of a screening without what is volatile (identifier and timestamp keys and values) or merely echoes the
 * request, so that calls of one test case compare by what the test case decides, the number of matches included.
 */
export function screeningOutcome(body: unknown, request: object): unknown {
  const echoed = new Set(Object.values(request).filter((value): value is string => typeof value === 'string'));
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(
            ([key, inner]) =>
              !isVolatileKey(key) &&
              !(typeof inner === 'string' && (echoed.has(inner) || VOLATILE_VALUES.some((re) => re.test(inner)))),
          )
          .map(([key, inner]) => [key, strip(inner)]),
      );
    }
    return value;
  };
  return strip(body);
}

/** Operations 8 and 9, each request checked against its documented fields before it is sent. */
export class AmlScreening {
  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
  ) {}

  personRequest(reference: string, name: { firstName: string; lastName: string }) {
    return { reference, ...name, provider: this.config.screeningProvider };
  }

  companyRequest(reference: string) {
    return { reference, provider: this.config.screeningProvider };
  }

  /** The configured path of operation 8. */
  get personPath(): string {
    return this.config.paths.personScreening;
  }

  screenPerson(request: PersonScreeningRequest, path = this.personPath): Promise<ApiResponse> {
    expectSchema('person-screening-request', request);
    const purpose = path === this.personPath ? 'screen person' : 'screen person (root path)';
    return this.api.request('POST', path, { json: request, operation: 'op8', purpose });
  }

  screenCompany(request: CompanyScreeningRequest): Promise<ApiResponse> {
    expectSchema('company-screening-request', request);
    const options = { json: request, operation: 'op9', purpose: 'screen company' };
    return this.api.request('POST', this.config.paths.companyScreening, options);
  }
}

export type PersonScreeningRequest = ReturnType<AmlScreening['personRequest']>;
export type CompanyScreeningRequest = ReturnType<AmlScreening['companyRequest']>;
