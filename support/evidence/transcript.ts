// Owns the transcript of a run: each test's steps in order with every request they sent (retries, token renewals and
// the pages of a list scan replayed into the tests it served included) and the evidence that decided each reading, read
// back from the run's Allure results, and the tokens global setup asked before the tests. docs/requests.md is the one
// of the embedded simulator with its defaults (tests/self-checks/transcript.test.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResults, type ResultStep } from './run-results.js';
import { SETUP_TOKEN_PURPOSE } from '../run/global-setup.js';
import type { ExchangeLine } from './observed/recorder.js';

/** An evidence line is cut here: what decided is in its first words. */
const EVIDENCE_CHARACTERS = 160;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** Each distinct gedi or other UUID of a test as `<uuid n>`, by first appearance: a transcript repeats run to run. */
function numberUuids(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) =>
    text.replace(UUID, (uuid) => {
      if (!seen.has(uuid)) seen.set(uuid, seen.size + 1);
      return `<uuid ${seen.get(uuid)}>`;
    });
}

/** A step's lines, its own steps indented under it: an exchange is its step's name, an assertion's is left out. */
function stepLines(steps: readonly ResultStep[], resultsDir: string, depth: number, plain: (text: string) => string) {
  const indent = '  '.repeat(depth);
  const lines: string[] = [];
  for (const step of steps) {
    if (step.name.startsWith('expect(')) continue;
    lines.push(`${indent}- ${plain(step.name)}`);
    for (const { name, source } of step.attachments ?? []) {
      if (!name.startsWith('Evidence')) continue;
      // The location and value that decided come first; the answer quoted after them is in the run's report.
      const [first = ''] = readFileSync(join(resultsDir, source), 'utf8').split('\n');
      const where = first.replace(/: ([{[]).*$/, ': $1…');
      const cut = where.length > EVIDENCE_CHARACTERS ? `${where.slice(0, EVIDENCE_CHARACTERS)}…` : where;
      lines.push(`${indent}  - evidence: ${plain(cut)}`);
    }
    lines.push(...stepLines(step.steps ?? [], resultsDir, depth + 1, plain));
  }
  return lines;
}

/** The token requests of the run's setup (support/run/global-setup.ts), which its recorder wrote before any test. */
function setupLines(observedDir: string): string[] {
  if (!existsSync(observedDir)) return [];
  return readdirSync(observedDir)
    .filter((name) => name.endsWith('.observations.jsonl'))
    .sort()
    .flatMap((file) => readFileSync(join(observedDir, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { kind: string } & Partial<ExchangeLine>)
    .filter(({ kind, purpose = '' }) => kind === 'exchange' && purpose.startsWith(SETUP_TOKEN_PURPOSE))
    .map(({ purpose, method, path, status }) => `- ${purpose}: ${method} ${path} → ${status ?? 'no answer'}`);
}

/** The transcript of the run whose Allure results and observations are given, under `preface`, as Markdown. */
export function renderTranscript(resultsDir: string, observedDir: string, preface: string): string {
  const byFile = new Map<string, { title: string; lines: string[] }[]>();
  for (const result of readResults([resultsDir])) {
    const [, file = result.fullName ?? result.name] = (result.fullName ?? '').match(/:(specs\/[^#]+)#/) ?? [];
    const tests = byFile.get(file) ?? [];
    tests.push({ title: result.name, lines: stepLines(result.steps ?? [], resultsDir, 0, numberUuids()) });
    byFile.set(file, tests);
  }
  const sections = [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, tests]) => [
      `## ${file}`,
      ...tests
        .sort((a, b) => a.title.localeCompare(b.title))
        .flatMap(({ title, lines }) => [`### ${title}`, lines.join('\n')]),
    ]);
  return [preface.trim(), "## Before the tests: the run's setup", setupLines(observedDir).join('\n'), ...sections]
    .join('\n\n')
    .concat('\n');
}
