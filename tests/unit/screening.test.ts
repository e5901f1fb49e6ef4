import { describe, expect, it } from 'vitest';
import { rootForm, screeningOutcome } from '../../support/verbs/screening.js';

/** Whether the outcome drops `key`: a value that is neither volatile nor echoed stays under any other key. */
const isVolatileKey = (key: string) => !(key in (screeningOutcome({ [key]: 'x' }, {}) as object));

describe('the outcome of a screening', () => {
  const request = { reference: 'company_test_case_01', provider: 'P' };

  it('ignores identifiers, timestamps and the echoed request', () => {
    const first = {
      id: 'a1',
      screenedAt: '2026-01-01T10:00:00Z',
      requestId: 'r1',
      reference: 'company_test_case_01',
      trace: '3f2b8c1e-1111-4222-8333-444455556666',
      risk: 'HIGH',
    };
    const second = {
      id: 'b2',
      screenedAt: '2026-01-01T10:00:05Z',
      requestId: 'r2',
      reference: 'company_test_case_01',
      trace: '9a2b8c1e-1111-4222-8333-444455556666',
      risk: 'HIGH',
    };
    expect(screeningOutcome(first, request)).toEqual(screeningOutcome(second, request));
  });

  it.each([
    'id',
    'screeningId',
    'request_id',
    'requestUUID',
    'timestamp',
    'createdAt',
    'updated_at',
    'date',
    'time',
    'processingTime',
  ])('treats %s as volatile: it names an identifier or a moment', (key) => {
    expect(isVolatileKey(key)).toBe(true);
  });

  it.each(['candidates', 'validated', 'format', 'identity', 'category', 'dateOfBirth', 'matchCount', 'idx', 'data'])(
    'compares %s: the word only contains a volatile name',
    (key) => {
      expect(isVolatileKey(key)).toBe(false);
    },
  );

  it('sees a candidate list that changes length between calls', () => {
    const first = { screeningId: 'a', candidates: [{ name: 'x', score: 0.9 }] };
    const second = {
      screeningId: 'b',
      candidates: [
        { name: 'x', score: 0.9 },
        { name: 'y', score: 0.4 },
      ],
    };
    expect(screeningOutcome(first, request)).not.toEqual(screeningOutcome(second, request));
  });

  // Two company cases, each answer echoing its own reference: equal but for the echo, or different in substance.
  const requests = [
    { reference: 'company_test_case_01', provider: 'P' },
    { reference: 'company_test_case_02', provider: 'P' },
  ];
  const compared = (answer: (reference: string) => unknown) =>
    requests.map((sent) => screeningOutcome(answer(sent.reference), sent));

  it.each([
    ['in an array', (reference: string) => ({ risk: 'LOW', references: [reference], tags: ['company', reference] })],
    [
      'in a sentence',
      (reference: string) => ({ risk: 'LOW', message: `Screening of ${reference} completed: no match.` }),
    ],
    ['in another letter case', (reference: string) => ({ risk: 'LOW', ref: reference.toUpperCase() })],
    [
      'in an echo of the request',
      (reference: string) => ({ companyInput: { reference, provider: 'P' }, screeningResult: { numberOfMatches: 0 } }),
    ],
  ])('compares two answers that differ only by their reference repeated %s as equal', (_name, answer) => {
    const [first, second] = compared(answer);
    expect(first).toEqual(second);
  });

  it.each([
    [
      'by risk',
      (reference: string) => ({ message: `Screened ${reference}`, risk: reference.endsWith('1') ? 'LOW' : 'HIGH' }),
    ],
    [
      'by the company verified',
      (reference: string) => ({
        references: [reference],
        verifiedCompany: { name: `Company ${reference.slice(-1)} AB` },
      }),
    ],
  ])('keeps two answers that differ %s apart', (_name, answer) => {
    const [first, second] = compared(answer);
    expect(first).not.toEqual(second);
  });

  it('does not take a short request value for an echo inside a word', () => {
    expect(screeningOutcome({ category: 'PEP', provider: 'P' }, { provider: 'P' })).toEqual({ category: 'PEP' });
  });

  it('keeps what the test case decides', () => {
    expect(screeningOutcome({ risk: 'HIGH', hits: [{ list: 'EU' }] }, request)).not.toEqual(
      screeningOutcome({ risk: 'LOW', hits: [] }, request),
    );
  });
});

describe('the root path form', () => {
  it('drops the version segment and nothing else', () => {
    expect(rootForm('/aml-real-time-screening/v2/api/aml/kyc/person/screening')).toBe(
      '/aml-real-time-screening/api/aml/kyc/person/screening',
    );
    expect(
      rootForm('/other/v2/x'),
      'a path the documentation does not give has no documented root form',
    ).toBeUndefined();
    expect(rootForm('/aml/v2/person/screening')).toBeUndefined();
  });
});
