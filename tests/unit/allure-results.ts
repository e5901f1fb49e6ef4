// Hand-written Allure results, in the format allure-vitest writes, in a scratch project that runs this project's
// allurerc.mjs with its docs, package.json and node_modules, so the real configuration and the installed Allure are
// what the tests of the report, the summaries and the gate exercise.
import type { Category } from '../../support/evidence/failures.js';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResolutionsConfig } from '@allurereport/core-api';
import { catalogue } from '../../support/run/catalogue.js';

const root = resolve(import.meta.dirname, '../..');

export interface Spec {
  name: string;
  status: 'passed' | 'failed' | 'broken';
  message?: string;
  trace?: string;
  story?: string;
  /** The verdict's labels, as support/evidence/report.ts `labelVerdict` writes them for a rule's test. */
  verdict?: { category: Category; step?: string; evidence?: string };
  /** When the attempt ended: of two attempts of one test, the later counts. */
  stop?: number;
}

/**
 * A scratch project, with `resolutions` as its docs/resolutions.json when given. allurerc.mjs is copied, not linked:
 * it reads docs/ beside itself, and Node resolves a linked module to where it really is.
 */
export function scratchProject(resolutions?: ResolutionsConfig): string {
  const project = mkdtempSync(join(tmpdir(), 'report-test-'));
  copyFileSync(join(root, 'allurerc.mjs'), join(project, 'allurerc.mjs'));
  for (const entry of ['node_modules', 'package.json', 'schemas']) symlinkSync(join(root, entry), join(project, entry));
  mkdirSync(join(project, 'docs'));
  for (const entry of readdirSync(join(root, 'docs')))
    if (!(resolutions && entry === 'resolutions.json'))
      symlinkSync(join(root, 'docs', entry), join(project, 'docs', entry));
  if (resolutions) writeFileSync(join(project, 'docs', 'resolutions.json'), JSON.stringify(resolutions));
  return project;
}

const fullName = (spec: Spec) => `specs/example.spec.ts#${spec.name}`;

/** The testCaseId allure-vitest gives a test: the md5 of its full name. */
export const testCaseId = (spec: Spec) => createHash('md5').update(fullName(spec)).digest('hex');

export function writeResults(dir: string, specs: Spec[]): void {
  mkdirSync(dir, { recursive: true });
  for (const spec of specs) {
    const uuid = randomUUID();
    writeFileSync(
      join(dir, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        name: spec.name,
        fullName: fullName(spec),
        testCaseId: testCaseId(spec),
        historyId: `history-${spec.name.replace(/\W+/g, '-')}`,
        status: spec.status,
        statusDetails: { message: spec.message, trace: spec.trace },
        stage: 'finished',
        steps: [
          { name: 'Given a person', status: 'passed', stage: 'finished', steps: [], attachments: [], parameters: [] },
        ],
        attachments: [],
        parameters: [],
        labels: [
          { name: 'epic', value: 'Sandbox person management v1' },
          { name: 'feature', value: 'PUT sandbox person' },
          ...(spec.story ? [{ name: 'story', value: spec.story }] : []),
          ...Object.entries(spec.verdict ?? {}).map(([name, value]) => ({ name, value })),
        ],
        links: [],
        start: 1,
        stop: spec.stop ?? 2,
      }),
    );
  }
}

export const green: Spec[] = [
  { name: 'updates the same person when the id already exists', status: 'passed', story: 'person.update-by-id' },
  { name: 'returns the gedi of a created person', status: 'passed', story: 'person.create-returns-gedi' },
  { name: 'finds a person by legal id', status: 'passed', story: 'person.find-by-legal-id' },
];

/** A test for every catalogued rule, as many as the gate asks for: each passed, unless `failures` holds its rule's. */
export const everyRule = (...failures: Spec[]): Spec[] =>
  catalogue.rules.map(
    ({ id }): Spec =>
      failures.find(({ story }) => story === id) ?? { name: `keeps the promise ${id}`, status: 'passed', story: id },
  );

export const brokenPromise: Spec = {
  name: 'deletes the person with that id',
  status: 'failed',
  story: 'transition.delete',
  message:
    'Broken rule transition.delete (States and transitions: "…"): the person is still found: expected 200 to be 404',
  verdict: { category: 'Broken rule', evidence: 'the person is still found: expected 200 to be 404' },
  trace: 'AssertionError: Broken rule transition.delete …\n    at specs/persons/delete.spec.ts:20:5',
};
