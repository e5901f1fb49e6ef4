// Owns the AML screening verbs: operations 8 and 9 and the sandbox test references.
import type { ContractConfig } from '../run/config.js';
import type { ApiClient, ApiResponse } from '../transport/http.js';
import { expectSchema } from '../readings/schemas.js';

export const PERSON_SCREENING_PATH = '/aml-real-time-screening/v2/api/aml/kyc/person/screening';

/** The sandbox references that select predefined test cases (Resources: Screening request). */
export const TEST_REFERENCES = {
  politician: 'person_test_case_01',
  firstCompany: 'company_test_case_01',
  secondCompany: 'company_test_case_02',
} as const;

/**
 * Versioning: the screening interface also exists under the root path /aml-real-time-screening/,
 * i.e. the same path without the version segment.
 */
export function rootForm(path: string): string {
  return path.replace(/^\/aml-real-time-screening\/v2\//, '/aml-real-time-screening/');
}

export interface PersonScreeningRequest {
  reference: string;
  firstName: string;
  lastName: string;
  provider: string;
}

export interface CompanyScreeningRequest {
  reference: string;
  provider: string;
}

/** Keys whose values legitimately change between two calls of the same test case. */
const VOLATILE_KEY = /^(id|uuid|guid)$|(Id|ID|_id|Uuid)$|time|Time|date|Date|created|updated|At$/;
const VOLATILE_VALUE = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
];

/**
 * The result of a screening with what may vary per call (identifiers, timestamps) and what merely
 * echoes the request removed, so two results can be compared for what the test case decides.
 */
export function screeningOutcome(body: unknown, request: object): unknown {
  const echoed = new Set(Object.values(request).filter((value): value is string => typeof value === 'string'));
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key, inner]) => !VOLATILE_KEY.test(key) && !(typeof inner === 'string' && (echoed.has(inner) || VOLATILE_VALUE.some((re) => re.test(inner)))))
          .map(([key, inner]) => [key, strip(inner)]),
      );
    }
    return value;
  };
  return strip(body);
}

const PEP_KEY = /pep|politically/i;
const PEP_TEXT = /\bPEPs?\b|politically exposed|politician/i;
const NEGATIVE = /^(no|none|false|0|n\/a|clear|no[_ -]?(hit|match|pep)|not[_ -]?(a[_ -]?)?pep)$/i;

/** Whether a value under a PEP-named key affirms exposure (`pep: true`, `peps: [...]`) or denies it (`pep: "NO_HIT"`). */
function affirms(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '' && !NEGATIVE.test(value.trim());
  if (typeof value === 'number') return value > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return value === true;
}

/** Evidence of a politically exposed person anywhere in a screening result. */
export function showsPoliticallyExposedPerson(body: unknown): boolean {
  if (typeof body === 'string') return PEP_TEXT.test(body) && !NEGATIVE.test(body.trim());
  if (Array.isArray(body)) return body.some(showsPoliticallyExposedPerson);
  if (body && typeof body === 'object') {
    return Object.entries(body).some(([key, value]) => (PEP_KEY.test(key) && affirms(value)) || showsPoliticallyExposedPerson(value));
  }
  return false;
}

/** Operations 8 and 9, each request checked against its documented fields before it is sent. */
export class AmlScreening {
  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
  ) {}

  personRequest(reference: string, name: { firstName: string; lastName: string }): PersonScreeningRequest {
    return { reference, ...name, provider: this.config.screeningProvider };
  }

  companyRequest(reference: string): CompanyScreeningRequest {
    return { reference, provider: this.config.screeningProvider };
  }

  screenPerson(request: PersonScreeningRequest, path = PERSON_SCREENING_PATH): Promise<ApiResponse> {
    expectSchema('person-screening-request', request);
    return this.api.request('POST', path, { json: request, operation: path === PERSON_SCREENING_PATH ? 'op8' : 'op8 (root path)' });
  }

  screenCompany(request: CompanyScreeningRequest, path = this.config.companyScreeningPath): Promise<ApiResponse> {
    expectSchema('company-screening-request', request);
    return this.api.request('POST', path, { json: request, operation: 'op9' });
  }
}
