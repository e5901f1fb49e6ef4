// Hand-written Allure results, in the format allure-vitest writes, in a scratch project that runs this project's
// allurerc.mjs with its docs, package.json and node_modules, so the real configuration and the installed Allure are
// what the tests of the report, the summaries and the gate exercise.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface Spec {
  name: string;
  status: 'passed' | 'failed' | 'broken';
  message?: string;
  trace?: string;
  story?: string;
  /** When the attempt ended: of two attempts of one test, the later counts. */
  stop?: number;
}

export function scratchProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'report-test-'));
  for (const entry of ['allurerc.mjs', 'docs', 'node_modules', 'package.json', 'schemas'])
    symlinkSync(join(root, entry), join(project, entry));
  return project;
}

export function writeResults(dir: string, specs: Spec[]): void {
  mkdirSync(dir, { recursive: true });
  for (const spec of specs) {
    const uuid = randomUUID();
    writeFileSync(
      join(dir, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        name: spec.name,
        fullName: `specs/example.spec.ts#${spec.name}`,
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

export const brokenPromise: Spec = {
  name: 'deletes the person with that id',
  status: 'failed',
  story: 'transition.delete',
  message:
    'Broken rule transition.delete (States and transitions: "…"): the person is still found: expected 200 to be 404',
  trace: 'AssertionError: Broken rule transition.delete …\n    at specs/persons/delete.spec.ts:20:5',
};
