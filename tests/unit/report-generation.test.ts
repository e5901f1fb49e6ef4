// The Allure report of hand-written results, written by this project's allurerc.mjs and the installed Allure: both
// report forms, the environment block, the categories, the observed contract and one history entry a run.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateReport } from '../../support/evidence/report-generation.js';
import { brokenPromise, green, scratchProject, writeResults } from './allure-results.js';

let project: string;
beforeAll(() => {
  project = scratchProject();
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

// Writing the report loads Allure in a process of its own (about a second of CPU). In npm test it shares two cores
// with the self-checks' runs: the unit project's 30 s would fail it for the machine's load, not for what it checks.
const ALLURE_TIMEOUT_MS = 120_000;

describe('report', { timeout: ALLURE_TIMEOUT_MS }, () => {
  test(
    'writes a multi-file and a single-file report with environment, categories, the observed contract and one ' +
      'history entry',
    async () => {
      const results = join(project, 'reports', 'allure-results');
      writeResults(results, [...green, brokenPromise]);
      const history = join(project, 'reports', 'history', 'history.jsonl');

      const report = await generateReport({ cwd: project, environment: { seed: '42' } });
      expect(existsSync(report.multiFile) && existsSync(report.singleFile)).toBe(true);
      expect(report.summary).toMatchObject({ total: 4, notPassed: 1 });
      const widgets = join(project, 'reports', 'allure-report', 'awesome', 'widgets');
      const environment = JSON.parse(readFileSync(join(widgets, 'allure_environment.json'), 'utf8')) as {
        name: string;
        values: string[];
      }[];
      expect(environment).toEqual(
        expect.arrayContaining([
          { name: 'seed', values: ['42'] },
          { name: 'target', values: ['embedded simulator'] },
        ]),
      );
      expect(readFileSync(join(widgets, 'categories.json'), 'utf8')).toContain('Contract broken');
      expect(readFileSync(join(widgets, 'globals.json'), 'utf8')).toContain('observed-contract.md');
      expect(existsSync(join(project, 'reports', 'observed', 'openapi.json'))).toBe(true);
      expect(readdirSync(join(project, 'reports', 'history', 'observed'))).toHaveLength(1);
      expect(readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(1);
      // What Allure lists of the failures its `issue` rules matched stays in the report folder.
      expect(existsSync(join(project, 'reports', 'allure-report', 'known-issues.json'))).toBe(true);
      expect(existsSync(join(project, 'known-issues.json'))).toBe(false);
    },
  );
});
