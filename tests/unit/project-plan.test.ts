import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { packFileRuns } from '../../support/run/project-plan.js';
import type { FileResult } from '../../support/run/suite-reporter.js';

const run = (mutant: string, specs: string[]) => ({ mutant, specs, env: { SIMULATOR_MUTANT: mutant } });

/** A file's result as vitest names it: by its absolute path. */
const ran = (file: string): FileResult => ({ name: resolve(file), assertionResults: [] });

test('packs runs of a file each into as few projects as hold each file once, each file with its run', () => {
  const runs = [run('a', ['x.spec.ts', 'y.spec.ts']), run('b', ['x.spec.ts']), run('c', ['z.spec.ts'])];
  const { projects, filesByRun } = packFileRuns(runs, (index) => `runs:${index + 1}`);
  expect(projects.map(({ name, specs }) => [name, specs])).toEqual([
    ['runs:1', ['x.spec.ts', 'y.spec.ts', 'z.spec.ts']],
    ['runs:2', ['x.spec.ts']],
  ]);
  expect(projects[1]!.fileEnv).toEqual({ 'x.spec.ts': { SIMULATOR_MUTANT: 'b' } });
  const byRun = filesByRun({
    'runs:1': [ran('x.spec.ts'), ran('y.spec.ts'), ran('z.spec.ts')],
    // y.spec.ts is no run's in the second project.
    'runs:2': [ran('x.spec.ts'), ran('y.spec.ts')],
  });
  expect(byRun.get(runs[0]!)).toEqual([ran('x.spec.ts'), ran('y.spec.ts')]);
  expect(byRun.get(runs[1]!)).toEqual([ran('x.spec.ts')]);
  expect(byRun.get(runs[2]!)).toEqual([ran('z.spec.ts')]);
  expect(byRun.size).toBe(3);
});
