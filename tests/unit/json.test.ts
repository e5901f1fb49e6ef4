import { describe, expect, it } from 'vitest';
import { containsValue, findValues } from '../../support/readings/json.js';

const person = { gedi: 'G-1', legalId: '198507099805', firstNames: ['Anna'], addressList: [{ city: 'Umeå' }] };

// The same person in layouts a service might plausibly choose.
const layouts: Record<string, unknown> = {
  flat: person,
  data: { data: person },
  items: { items: [person] },
  results: { results: [{ other: true }, person] },
  content: { content: [person], page: { number: 0 } },
  persons: { persons: [person] },
  hal: { _embedded: { persons: [person] } },
  'top-level array': [person],
  'deeply wrapped': { response: { payload: { data: [{ person }] } } },
};

describe('findValues / containsValue in any layout', () => {
  it.each(Object.entries(layouts))('finds the documented values in the %s layout', (_name, body) => {
    expect(findValues(body, 'gedi')).toEqual(['G-1']);
    expect(findValues(body, 'LEGALID')).toEqual(['198507099805']);
    expect(containsValue(body, '198507099805')).toBe(true);
    expect(containsValue(body, 'Umeå')).toBe(true);
  });

  it('compares strings exactly, never as substrings or across types', () => {
    expect(containsValue(layouts.items, '19850709')).toBe(false);
    expect(containsValue({ n: 198507099805 }, '198507099805')).toBe(false);
    expect(containsValue({ removed: true }, true)).toBe(true);
    expect(containsValue(undefined, 'x')).toBe(false);
  });

  it('returns every value under the key, outermost first', () => {
    expect(findValues({ gedi: 'outer', merged: { gedi: 'inner' } }, 'gedi')).toEqual(['outer', 'inner']);
  });
});
