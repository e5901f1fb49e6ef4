import { expect, test } from 'vitest';
import { packFileRuns } from '../../support/run/project-plan.js';

const run = (mutant: string, specs: string[]) => ({ mutant, specs, env: { SIMULATOR_MUTANT: mutant } });

test('packs runs of a file each into as few projects as hold each file once, each file with its run', () => {
  const runs = [run('a', ['x.spec.ts', 'y.spec.ts']), run('b', ['x.spec.ts']), run('c', ['z.spec.ts'])];
  const { projects, runOf } = packFileRuns(runs, (index) => `runs:${index + 1}`);
  expect(projects.map(({ name, specs }) => [name, specs])).toEqual([
    ['runs:1', ['x.spec.ts', 'y.spec.ts', 'z.spec.ts']],
    ['runs:2', ['x.spec.ts']],
  ]);
  expect(projects[1]!.fileEnv).toEqual({ 'x.spec.ts': { SIMULATOR_MUTANT: 'b' } });
  expect(runOf('runs:1', 'x.spec.ts')).toBe(runs[0]);
  expect(runOf('runs:2', 'x.spec.ts')).toBe(runs[1]);
  expect(runOf('runs:1', 'z.spec.ts')).toBe(runs[2]);
  expect(runOf('runs:2', 'y.spec.ts')).toBeUndefined();
});
