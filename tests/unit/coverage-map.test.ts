// A documented rule has its parts in several files: its catalogue entry, its spec, its mutant, the mutant's probe and
// its row in simulator/README.md, the fact its spec reads (a name, and a location in every simulator layout file) and,
// for a mark a PUT leaves, the probe's `shows`, whose check (tests/simulator/layout-files.test.ts) holds each layout's
// handling to those files. Each check here names the part that is missing and the file to change (CONTRIBUTING.md).
import { globSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../support/run/catalogue.js';
import { README, readmeWithMap, specChecks } from '../../support/run/coverage-map.js';
import { FACT_NAMES, readLayoutFile } from '../../support/layout/layout-file.js';
import { MUTANTS } from '../../simulator/mutants.js';
import { PROBES } from '../simulator/probes.js';

const root = new URL('../../', import.meta.url).pathname;
const LAYOUT_FILES = 'schemas/layouts/simulator';

/** Each `facts.reading('<fact>'` of a spec file: the facts a rule's spec reads at a learned location. */
const factReadings = () =>
  [...new Set(specChecks().map(({ file, rule }) => `${file} ${rule}`))].flatMap((entry) => {
    const [file, rule] = entry.split(' ') as [string, string];
    const text = readFileSync(`${root}${file}`, 'utf8');
    return [...text.matchAll(/facts\.reading\(\s*'([^']+)'/g)].map((match) => ({ fact: match[1]!, file, rule }));
  });

/**
 * Facts whose layouts' handling is held to the layout files by learning rather than by a probe's `shows`: their
 * transition needs more than the person's own fields (tests/self-checks/learning.test.ts learns each in every layout).
 */
const SHOWN_BY_LEARNING: Record<string, string> = {
  'person.removed': 'a DELETE applies it',
  'person.merged': 'it names a second person',
  'relative.deceased': "it is read on a relative's entry",
  'relative.deregistered': "it is read on a relative's entry",
  'consumer.identified': 'it is a consumer upload',
};

describe('documentation coverage', () => {
  const checks = specChecks();
  const covered = new Set(checks.map((check) => check.rule));
  const known = new Set(catalogue.rules.map((rule) => rule.id));

  it('has a spec for every documented rule and transition', () => {
    expect(
      catalogue.rules.filter((rule) => !covered.has(rule.id)).map((rule) => rule.id),
      "rules of docs/catalogue.json without a spec: add specs/<area>/<rule>.spec.ts calling rule('<id>').test(…)",
    ).toEqual([]);
  });

  it('exercises every documented operation (token and operations 1–9) through some covered rule', () => {
    const exercised = catalogue.rules.filter((rule) => covered.has(rule.id)).flatMap((rule) => rule.operations);
    expect(catalogue.operations.map(({ id }) => id).filter((id) => !exercised.includes(id))).toEqual([]);
  });

  it('names only rules the catalogue knows', () => {
    expect(
      checks.filter((check) => !known.has(check.rule)).map(({ rule, file }) => `${rule} (${file})`),
      'rules a spec names that docs/catalogue.json lacks: add its entry (id, kind, operations, section, quote, ' +
        'severity)',
    ).toEqual([]);
  });

  it('has a simulator mutant for every rule a server can break', () => {
    const broken = new Set(Object.values(MUTANTS).map((mutant) => mutant.rule));
    expect(
      catalogue.rules.filter((rule) => !rule.clientSide && !broken.has(rule.id)).map((rule) => rule.id),
      'rules without a mutant: add one to simulator/mutants.ts ({ rule, exercisedIn, breaks }), or mark the rule ' +
        'clientSide in docs/catalogue.json if no server can break it',
    ).toEqual([]);
  });

  it('says for every mutant in which step of its spec the kill counts', () => {
    const steps = (value: unknown) =>
      typeof value === 'string' ? [value] : typeof value === 'object' && value ? Object.values(value) : [undefined];
    expect(
      Object.entries(MUTANTS)
        .filter(([, mutant]) => !steps(mutant.exercisedIn).every((step) => step === 'When' || step === 'Then'))
        .map(([name]) => name),
      "mutants without exercisedIn: say in simulator/mutants.ts which step of the rule's spec must fail, " +
        "'When' or 'Then' (or one per layout)",
    ).toEqual([]);
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

  it('lists every mutant in the mutant table of simulator/README.md', () => {
    const readme = readFileSync(`${root}simulator/README.md`, 'utf8');
    expect(
      Object.keys(MUTANTS).filter((name) => !readme.includes(`\n| \`${name}\` |`)),
      'mutants without a row in the mutant table of simulator/README.md: add | `<mutant>` | `<rule>` | <breaks> |',
    ).toEqual([]);
  });

  it('has no mutant that names a rule outside the catalogue', () => {
    expect(
      Object.entries(MUTANTS)
        .filter(([, mutant]) => !known.has(mutant.rule))
        .map(([name, mutant]) => `${name} (${mutant.rule})`),
      'mutants whose rule docs/catalogue.json lacks: add the rule there, or fix the rule id in simulator/mutants.ts',
    ).toEqual([]);
  });

  it('knows every fact a spec reads', () => {
    expect(
      factReadings()
        .filter(({ fact }) => !(FACT_NAMES as readonly string[]).includes(fact))
        .map(({ fact, file }) => `${fact} (${file})`),
      'facts a spec reads that support/layout/layout-file.ts lacks: add the name to FACT_NAMES, and its reading by ' +
        'key names to VOCABULARY and its operation to OPERATIONS in support/layout/learned-readings.ts',
    ).toEqual([]);
  });

  it('has every fact a spec reads in every simulator layout file', () => {
    const files = globSync(`${LAYOUT_FILES}/*.json`, { cwd: root }).sort();
    const layouts = files.map((file) => ({ file: basename(file), layout: readLayoutFile(`${root}${file}`) }));
    const missing = [...new Set(factReadings().map(({ fact }) => fact))].flatMap((fact) => {
      const without = layouts.filter(
        ({ layout }) => !layout.facts[fact as never] && !layout.unlearned?.[fact as never],
      );
      return without.length === 0 ? [] : [`${fact}: ${without.map(({ file }) => file).join(', ')}`];
    });
    expect(
      missing,
      `facts missing from layout files of ${LAYOUT_FILES}/: add each where its layout (simulator/layouts/*.ts, ` +
        'honest-shapes.ts for a status form, as-sent.ts for a body stored as sent) shows it',
    ).toEqual([]);
  });

  it("holds each layout's handling of a mark a spec reads to the layout files, through a probe", () => {
    const shown = new Set(Object.values(PROBES).flatMap(({ shows }) => (shows ? [shows.fact] : [])));
    expect(
      factReadings()
        .filter(({ fact }) => !shown.has(fact as never) && !Object.hasOwn(SHOWN_BY_LEARNING, fact))
        .map(({ fact, rule }) => `${fact} (${rule})`),
      "facts no probe shows: give the rule's probe in tests/simulator/probes.ts the fields that leave the mark " +
        "(markProbe); tests/simulator/layout-files.test.ts then checks each layout's handling in simulator/layouts/",
    ).toEqual([]);
  });

  it('shows the current map in README.md (run `npm run docs:map` after changing specs)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readmeWithMap(readme), 'README.md: run `npm run docs:map`').toBe(readme);
  });
});
