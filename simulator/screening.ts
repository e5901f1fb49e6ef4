import { randomUUID } from 'node:crypto';
import { badRequest } from './errors.js';
import type { MutantName } from './mutants.js';
import type { Fields } from './persons.js';
import type { SimulatorState } from './state.js';
import { checkShape } from './validation.js';

export type ScreeningSubject = 'person' | 'company';

/** A hit in the predefined result of a test case. */
export interface ScreeningMatch {
  name: string;
  category: 'PEP' | 'SANCTIONS' | 'ADVERSE_MEDIA';
  pep: boolean;
  description: string;
  score: number;
  /** Only under a mutant: the entry's own word that it is no match. */
  matched?: false;
  /** Only under a mutant: the datasets a match names beside its category. */
  datasets?: string[];
}

export interface ScreeningResult {
  screeningId: string;
  timestamp: string;
  reference: string;
  provider: string;
  subject: ScreeningSubject;
  riskLevel: 'LOW' | 'MEDIUM' | 'HIGH';
  matches: ScreeningMatch[];
  /** The company as the predefined case verifies it (company cases only). */
  verified?: { subjectReference: string; name: string };
  /** The request as sent, for layouts that echo it. */
  input: Fields;
  /** Only under mutants: what a no-match answer may still say about the lists it checked. */
  listsChecked?: string[];
  message?: string;
  /** Only under the screening-candidates-vary mutant: near misses whose number changes per call. */
  candidates?: { name: string; score: number }[];
  /** Only under a mutant: an overall count of matches that disagrees with the entries. */
  matchCount?: number;
}

type Outcome = Pick<
  ScreeningResult,
  'riskLevel' | 'matches' | 'verified' | 'listsChecked' | 'message' | 'candidates' | 'matchCount'
>;

// The documentation fixes only that the person case is "a politician"; the rest is the simulator's guess.
const POLITICIAN: Outcome = {
  riskLevel: 'HIGH',
  matches: [
    { name: 'Test Politician', category: 'PEP', pep: true, description: 'Member of national parliament', score: 0.97 },
  ],
};
const NO_HIT: Outcome = { riskLevel: 'LOW', matches: [] };
const CLEAR_COMPANY: Outcome = {
  ...NO_HIT,
  verified: { subjectReference: 'SANDBOX-COMPANY-1', name: 'Test Company One AB' },
};
const SANCTIONED_COMPANY: Outcome = {
  riskLevel: 'HIGH',
  verified: { subjectReference: 'SANDBOX-COMPANY-2', name: 'Test Trading Company Ltd' },
  matches: [
    {
      name: 'Test Trading Company Ltd',
      category: 'SANCTIONS',
      pep: false,
      description: 'Listed on a consolidated sanctions list',
      score: 0.91,
    },
  ],
};

const CASES: Record<string, { subject: ScreeningSubject; outcome: Outcome }> = {
  person_test_case_01: { subject: 'person', outcome: POLITICIAN },
  company_test_case_01: { subject: 'company', outcome: CLEAR_COMPANY },
  company_test_case_02: { subject: 'company', outcome: SANCTIONED_COMPANY },
};

const REQUEST_SHAPES = {
  person: {
    object: { reference: 'string', firstName: 'string', lastName: 'string', provider: 'string' },
    required: ['reference', 'provider'],
  },
  // Fields of the company request are not shown: reference is what selects the case; provider is optional but checked.
  // name, regNo and nationality are the fields the vendor's public collection sends.
  company: {
    object: {
      reference: 'string',
      provider: 'string',
      name: 'string',
      regNo: 'string',
      nationality: 'string',
      companyName: 'string',
      registrationNumber: 'string',
      country: 'string',
    },
    required: ['reference'],
  },
} as const;

// Words that name PEP without affirming a match: a reading that counts words would see a politician.
const NO_HIT_NAMING_PEP: Outcome = {
  ...NO_HIT,
  listsChecked: ['PEP', 'SANCTIONS', 'ADVERSE_MEDIA'],
  message: 'No PEP match found',
};

// Answers that list a PEP entry yet deny it: by the entry's own word, by an overall count of zero, or as a
// sanctions match that only names PEP among its datasets. A reading that finds the word PEP sees a politician.
const PEP_ENTRY_DENIED: Outcome = {
  ...NO_HIT,
  matches: POLITICIAN.matches.map((match) => ({ ...match, matched: false })),
};
const PEP_COUNTED_ZERO: Outcome = { ...POLITICIAN, matchCount: 0 };
const SANCTIONS_LISTING_PEP: Outcome = {
  riskLevel: 'HIGH',
  matches: [
    {
      name: 'Test Politician',
      category: 'SANCTIONS',
      pep: false,
      description: 'Listed on a consolidated sanctions list',
      score: 0.9,
      datasets: ['PEP', 'SANCTIONS'],
    },
  ],
};
const PERSON_CASE_MUTANTS: Partial<Record<MutantName, Outcome>> = {
  'person-case-without-hit': NO_HIT,
  'person-case-no-match-names-pep': NO_HIT_NAMING_PEP,
  'person-case-pep-entries-deny': PEP_ENTRY_DENIED,
  'person-case-pep-count-zero': PEP_COUNTED_ZERO,
  'person-case-sanctions-lists-pep': SANCTIONS_LISTING_PEP,
};

// Per simulator: several simulators share this module in one process (the mutant matrix starts one per
// mutant and layout), and a shared count could give one of them the same length twice in a row.
const candidateCalls = new WeakMap<SimulatorState, number>();

function outcomeOf(state: SimulatorState, reference: string): Outcome {
  const personCase = state.options.mutant && PERSON_CASE_MUTANTS[state.options.mutant];
  if (reference === 'person_test_case_01' && personCase) return personCase;
  if (state.mutant('screening-candidates-vary')) {
    const calls = (candidateCalls.get(state) ?? 0) + 1;
    candidateCalls.set(state, calls);
    return {
      ...CASES[reference].outcome,
      candidates: Array.from({ length: 1 + (calls % 3) }, (_, index) => ({
        name: `Near miss ${index + 1}`,
        score: 0.4,
      })),
    };
  }
  if (reference === 'company_test_case_02' && state.mutant('company-cases-identical')) return CLEAR_COMPANY;
  const outcome = CASES[reference].outcome;
  if (!state.mutant('screening-not-deterministic')) return outcome;
  return {
    ...outcome,
    matches: outcome.matches.map((match) => ({ ...match, score: Math.round(state.random() * 100) / 100 })),
  };
}

/** Operations 8 and 9: a fixed reference selects a predefined result; only the id and timestamp vary. */
export function screen(state: SimulatorState, subject: ScreeningSubject, body: unknown): ScreeningResult {
  checkShape(body, REQUEST_SHAPES[subject], 'body');
  const request = body as Fields & { reference: string; provider?: string };
  const testCase = Object.hasOwn(CASES, request.reference) ? CASES[request.reference] : undefined;
  if (testCase?.subject !== subject) {
    const known = Object.keys(CASES).filter((reference) => CASES[reference].subject === subject);
    throw badRequest(
      'reference',
      `unknown ${subject} test case ${JSON.stringify(request.reference)}; use one of ${known.join(', ')}`,
    );
  }
  if (request.provider !== undefined && request.provider !== state.options.provider) {
    throw badRequest(
      'provider',
      `unknown screening provider ${JSON.stringify(request.provider)}; the sandbox accepts ${state.options.provider}`,
    );
  }
  return {
    screeningId: randomUUID(),
    timestamp: new Date(state.now()).toISOString(),
    reference: request.reference,
    provider: state.options.provider,
    subject,
    input: request,
    ...outcomeOf(state, request.reference),
  };
}
