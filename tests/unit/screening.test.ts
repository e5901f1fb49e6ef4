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
