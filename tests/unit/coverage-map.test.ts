import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../support/run/catalogue.js';
import { README, readmeWithMap, specChecks } from '../../support/run/coverage-map.js';
import { MUTANTS } from '../../simulator/mutants.js';
import { PROBES } from '../simulator/probes.js';

describe('documentation coverage', () => {
  const checks = specChecks();
  const covered = new Set(checks.map((check) => check.rule));

  it('has a spec for every documented rule and transition', () => {
    expect(catalogue.rules.filter((rule) => !covered.has(rule.id)).map((rule) => rule.id)).toEqual([]);
  });

  it('exercises every documented operation (token and operations 1–9) through some covered rule', () => {
    const exercised = catalogue.rules.filter((rule) => covered.has(rule.id)).flatMap((rule) => rule.operations);
    expect(catalogue.operations.map(({ id }) => id).filter((id) => !exercised.includes(id))).toEqual([]);
  });

  it('names only rules the catalogue knows', () => {
    const known = new Set(catalogue.rules.map((rule) => rule.id));
    expect(checks.filter((check) => !known.has(check.rule))).toEqual([]);
  });

  it('has a simulator mutant for every rule a server can break', () => {
    const broken = new Set(Object.values(MUTANTS).map((mutant) => mutant.rule));
    expect(catalogue.rules.filter((rule) => !rule.clientSide && !broken.has(rule.id)).map((rule) => rule.id)).toEqual(
      [],
    );
  });

  it('has a probe in tests/simulator/probes.ts for the rule of every mutant', () => {
    const withoutProbe = Object.entries(MUTANTS)
      .filter(([, mutant]) => !Object.hasOwn(PROBES, mutant.rule))
      .map(([name, mutant]) => `${mutant.rule} (mutant ${name})`);
    expect(
      withoutProbe,
      'rules whose mutant has no probe: add one to PROBES in tests/simulator/probes.ts, true when the rule holds',
    ).toEqual([]);
  });

  it('has no mutant that names a rule outside the catalogue', () => {
    const known = new Set(catalogue.rules.map((rule) => rule.id));
    expect(
      Object.entries(MUTANTS)
        .filter(([, mutant]) => !known.has(mutant.rule))
        .map(([name]) => name),
    ).toEqual([]);
  });

  it('shows the current map in README.md (run `npm run docs:map` after changing specs)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readmeWithMap(readme)).toBe(readme);
  });
});
