import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { packFileRuns } from '../../support/run/project-plan.js';
import type { FileResult } from '../../support/run/suite-reporter.js';

const run = (mutant: string, specs: string[]) => ({ mutant, specs, env: { SIMULATOR_MUTANT: mutant } });

/** A file's result as vitest names it: by its absolute path. */
const ran = (file: string): FileResult => ({ name: resolve(file), assertionResults: [] });

test('packs runs of a file each into one project, a file per run importing its spec, each file with its run', () => {
  const runs = [run('a', ['specs/x.spec.ts', 'specs/y.spec.ts']), run('b', ['specs/x.spec.ts'])];
  const { projects, filesByRun, remove } = packFileRuns(runs, 'runs');
  onTestFinished(remove);
  // A fresh folder under .tmp/, where vitest finds test files: <folder>/<run>/specs/<file>.
  const folder = dirname(dirname(dirname(resolve(projects[0]!.specs[0]!))));
  expect(dirname(folder)).toBe(resolve('.tmp'));
  const files = [
    join(folder, '0/specs/x.spec.ts'),
    join(folder, '0/specs/y.spec.ts'),
    join(folder, '1/specs/x.spec.ts'),
  ];
  expect(projects.map(({ name, specs }) => [name, specs.map((spec) => resolve(spec))])).toEqual([['runs', files]]);
  // The same spec twice, each under its run's query: evaluated once per run.
  const [, target, number] = /^import '(.+)\?run=(\d+)';\n$/.exec(readFileSync(files[2]!, 'utf8'))!;
  expect([resolve(dirname(files[2]!), target!), number]).toEqual([resolve('specs/x.spec.ts'), '1']);
  expect(projects[0]!.fileEnv![projects[0]!.specs[2]!]).toEqual({ SIMULATOR_MUTANT: 'b' });
  const byRun = filesByRun({ runs: [ran(files[0]!), ran(files[1]!), ran(files[2]!), ran('specs/other.spec.ts')] });
  expect(byRun.get(runs[0]!)).toEqual([ran('specs/x.spec.ts'), ran('specs/y.spec.ts')]);
  expect(byRun.get(runs[1]!)).toEqual([ran('specs/x.spec.ts')]);
  expect(byRun.size).toBe(2);
  remove();
  expect(existsSync(folder)).toBe(false);
});
