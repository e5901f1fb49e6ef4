import { describe, expect, it } from 'vitest';
import { describes, gediIn } from '../../support/verbs/persons.js';
import { createDataFactory } from '../../support/data/factories.js';

describe('the gedi in a PUT response', () => {
  it.each([
    ['at the top', { gedi: 'G-1', id: 'p' }],
    ['in an envelope', { data: { clientReference: 'p', gedi: 'G-1' } }],
    ['in a list', [{ person: { gedi: 'G-1' } }]],
  ])('is found %s', (_where, body) => {
    expect(gediIn(body)).toBe('G-1');
  });

  it('prefers the top-level gedi over one named inside (a merge target)', () => {
    expect(gediIn({ merged: { gedi: 'TARGET' }, gedi: 'SELF' })).toBe('SELF');
  });

  it('is missing from a body without one', () => {
    expect(gediIn({ id: 'p', status: 'ACCEPTED' })).toBeUndefined();
    expect(gediIn(undefined)).toBeUndefined();
  });
});

describe('a record describing a stored person', () => {
  const person = createDataFactory({ seed: 1, runId: 'r', market: 'SE', scope: 'persons.test' }).person();

  it('carries its gedi or its legal id', () => {
    expect(describes({ data: { gedi: 'G-1' } }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(true);
    expect(describes({ attributes: { legalId: person.legalId } }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(true);
    expect(describes({ gedi: 'G-2', legalId: '190001010000' }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(false);
  });
});
