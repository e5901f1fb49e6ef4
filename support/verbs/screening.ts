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

/** The path without its version segment; undefined off the versioned form, whose root form is not documented. */
export function rootForm(path: string): string | undefined {
  return VERSIONED.test(path) ? path.replace(VERSIONED, '/aml-real-time-screening/') : undefined;
}

// Keys naming an identifier or a moment, which may differ between calls of one test case: the whole key or its last
// word (`screeningId`, `created_at`), never part of a word (`candidates` and `validated` are compared).
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

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A screening result without volatile keys and values or echoes of the request: what the test case decides. An echo
 * is a request value in any letter case, whole (a field or an element of a list) or as a word of a sentence.
 */
export function screeningOutcome(body: unknown, request: object): unknown {
  const sent = Object.values(request)
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .sort((a, b) => b.length - a.length);
  // The longest first, each on its own: never part of a longer word (`P` is not echoed in `PEP`).
  const echo =
    sent.length === 0 ? undefined : new RegExp(`(?<![\\w-])(${sent.map(escaped).join('|')})(?![\\w-])`, 'gi');
  const withoutEcho = (text: string): string => (echo ? text.replace(echo, '…') : text);
  const volatileValue = (value: unknown) =>
    typeof value === 'string' && (withoutEcho(value).trim() === '…' || VOLATILE_VALUES.some((re) => re.test(value)));
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string') return withoutEcho(value);
    if (Array.isArray(value)) return value.filter((item) => !volatileValue(item)).map(strip);
    if (!value || typeof value !== 'object') return value;
    const kept = Object.entries(value).filter(([key, inner]) => !isVolatileKey(key) && !volatileValue(inner));
    return Object.fromEntries(kept.map(([key, inner]) => [key, strip(inner)]));
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

  screenPerson(request: PersonScreeningRequest, path = this.config.paths.personScreening): Promise<ApiResponse> {
    expectSchema('person-screening-request', request);
    const purpose = path === this.config.paths.personScreening ? 'screen person' : 'screen person (root path)';
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
