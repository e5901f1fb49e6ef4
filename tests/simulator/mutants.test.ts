import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../support/run/catalogue.js';
import { MUTANT_NAMES, MUTANTS } from '../../simulator/mutants.js';
import { Harness } from './harness.js';
import { PROBES } from './probes.js';

// A few records preloaded per client, as on a service in use: lists-answer-500 fails only the pages beyond a client's
// own uploads.
const BACKGROUND = 2;

async function verdicts(h: Harness, rules: string[]): Promise<Record<string, boolean>> {
  const entries: Array<[string, boolean]> = [];
  for (const rule of rules) entries.push([rule, await PROBES[rule].holds(h)]);
  return Object.fromEntries(entries);
}

describe('the mutant catalogue', () => {
  it('has a probe for every rule a server can break, and every mutant names one of them', () => {
    const serverRules = catalogue.rules.filter((rule) => !rule.clientSide).map((rule) => rule.id);
    expect(Object.keys(PROBES).sort()).toEqual(serverRules.sort());
    for (const name of MUTANT_NAMES) expect(serverRules, name).toContain(MUTANTS[name].rule);
  });
});

describe('without a mutant', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ backgroundRecords: BACKGROUND });
  });
  afterAll(() => h.close());

  it('keeps every rule', async () => {
    const rules = Object.keys(PROBES);
    expect(await verdicts(h, rules)).toEqual(Object.fromEntries(rules.map((rule) => [rule, true])));
  });
});

describe.each(MUTANT_NAMES)('mutant %s', (mutant) => {
  const { rule } = MUTANTS[mutant];
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ mutant, backgroundRecords: BACKGROUND });
  });
  afterAll(() => h.close());

  it(`breaks ${rule}`, async () => {
    expect(await PROBES[rule].holds(h)).toBe(false);
  });

  it('keeps every rule that does not depend on it', async () => {
    const others = Object.keys(PROBES).filter((other) => other !== rule && !PROBES[other].dependsOn.includes(rule));
    expect(await verdicts(h, others)).toEqual(Object.fromEntries(others.map((other) => [other, true])));
  });
});
