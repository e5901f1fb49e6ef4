import { describe, expect, it } from 'vitest';
import { Harness, screeningPath } from './harness.js';

describe('screening test cases', () => {
  let h: Harness;
  let token: string;
  Harness.forBlock({}, (started) => ({ h, token } = started));

  const screen = (subject: 'person' | 'company', json: object, root = false) =>
    h.request('POST', screeningPath(subject, root), { token, json });

  it('answers person_test_case_01 with a politician (PEP) hit', async () => {
    const answer = await screen('person', {
      reference: 'person_test_case_01',
      firstName: 'Test',
      lastName: 'Politician',
      provider: 'SANDBOX-AML',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      reference: 'person_test_case_01',
      provider: 'SANDBOX-AML',
      matches: [{ category: 'PEP', pep: true }],
    });
  });

  it('answers the two company cases with different predefined results, provider optional', async () => {
    const first = await screen('company', { reference: 'company_test_case_01' });
    const second = await screen('company', { reference: 'company_test_case_02', provider: 'SANDBOX-AML' });
    expect(first.body.matches).toEqual([]);
    expect(second.body.matches).toEqual([expect.objectContaining({ category: 'SANCTIONS' })]);
  });

  it('is deterministic except for the screening id and timestamp, on both address forms', async () => {
    const strip = ({ screeningId: _id, timestamp: _at, ...rest }: Record<string, unknown>) => rest;
    const answers = await Promise.all(
      [false, true, false].map((root) =>
        screen('person', { reference: 'person_test_case_01', provider: 'SANDBOX-AML' }, root),
      ),
    );
    expect(new Set(answers.map((answer) => answer.body.screeningId)).size).toBe(3);
    expect(answers.map((answer) => strip(answer.body))).toEqual(Array(3).fill(strip(answers[0].body)));
    expect((await screen('company', { reference: 'company_test_case_02' }, true)).status).toBe(200);
  });
});
