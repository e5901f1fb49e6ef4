import { describe, expect, it } from 'vitest';
import { rootForm, screeningOutcome, showsPoliticallyExposedPerson } from '../../support/verbs/screening.js';

describe('evidence of a politically exposed person', () => {
  it.each([
    ['a PEP flag', { result: { pep: true } }],
    ['a PEP category in a match list', { matches: [{ category: 'PEP', name: 'x' }] }],
    ['a list of PEP hits', { peps: [{ name: 'x' }] }],
    ['prose', { summary: 'Subject is a politically exposed person' }],
    ['a politician', { hits: [{ role: 'Politician, member of parliament' }] }],
    ['a PEP status', { pepStatus: 'HIT' }],
  ])('is found in %s', (_name, body) => {
    expect(showsPoliticallyExposedPerson(body)).toBe(true);
  });

  it.each([
    ['no hits', { hits: [], reference: 'person_test_case_01' }],
    ['a denied PEP flag', { pep: false }],
    ['a PEP status saying no hit', { pepStatus: 'NO_HIT' }],
    ['an empty PEP list', { peps: [] }],
    ['a sanctions hit only', { hits: [{ category: 'SANCTION' }] }],
  ])('is not found in %s', (_name, body) => {
    expect(showsPoliticallyExposedPerson(body)).toBe(false);
  });
});

describe('the outcome of a screening', () => {
  const request = { reference: 'company_test_case_01', provider: 'P' };

  it('ignores identifiers, timestamps and the echoed request', () => {
    const first = { id: 'a1', screenedAt: '2026-01-01T10:00:00Z', requestId: 'r1', reference: 'company_test_case_01', trace: '3f2b8c1e-1111-4222-8333-444455556666', risk: 'HIGH' };
    const second = { id: 'b2', screenedAt: '2026-01-01T10:00:05Z', requestId: 'r2', reference: 'company_test_case_01', trace: '9a2b8c1e-1111-4222-8333-444455556666', risk: 'HIGH' };
    expect(screeningOutcome(first, request)).toEqual(screeningOutcome(second, request));
  });

  it('keeps what the test case decides', () => {
    expect(screeningOutcome({ risk: 'HIGH', hits: [{ list: 'EU' }] }, request)).not.toEqual(screeningOutcome({ risk: 'LOW', hits: [] }, request));
  });
});

describe('the root path form', () => {
  it('drops the version segment and nothing else', () => {
    expect(rootForm('/aml-real-time-screening/v2/api/aml/kyc/person/screening')).toBe('/aml-real-time-screening/api/aml/kyc/person/screening');
    expect(rootForm('/other/v2/x')).toBe('/other/v2/x');
  });
});
