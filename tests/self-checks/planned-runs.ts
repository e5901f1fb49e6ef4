// Many contract runs of one self-check file in one vitest process, on the simulated clock, one after another with
// each run's spec files at once in its worker, or each file a run of its own (support/run/project-plan.ts): one vitest
// start-up for all of them.
// The first test that asks starts them; each test reads its own run's files.
import { afterAll, expect } from 'vitest';
import { onSimulatedClock, runPlannedProjects } from '../../support/run/child-runs.js';
import { packFileRuns, type PlannedRun } from '../../support/run/project-plan.js';
import type { FileResult, ProjectResults } from '../../support/run/suite-reporter.js';
import { ownReports } from './own-reports.js';

/**
 * Each run with a reports folder of its own, removed once every test of the file has ended; `env`, the process's own
 * variables (its reporters read them). `eachFileAlone`: each spec file of a run is a run of its own, with a simulator
 * of its own and the run's variables, all in one worker (project-plan.ts `packFileRuns`), for runs whose files need
 * not run at once: a worker per run costs more than the run.
 */
export function plannedRuns(runs: PlannedRun[], env: NodeJS.ProcessEnv = {}, { eachFileAlone = false } = {}) {
  const reports = new Map(runs.map(({ name }) => [name, ownReports({ onTestFinished: (remove) => afterAll(remove) })]));
  const planned = runs.map((run) => ({ ...run, env: { ...run.env, ...reports.get(run.name)!.env } }));
  const packed = eachFileAlone ? packFileRuns(planned, 'files') : undefined;
  if (packed) afterAll(packed.remove);
  let started: ReturnType<typeof runPlannedProjects> | undefined;
  /** The one process of every run, started the first time it is asked for. */
  const finished = () =>
    (started ??= runPlannedProjects(
      packed?.projects ?? planned,
      { ...process.env, ...onSimulatedClock(), ...env },
      packed && 1,
    ));
  /** The named run's spec files among every project's. */
  const runFiles = (results: ProjectResults, name: string): FileResult[] =>
    (packed ? packed.filesByRun(results).get(planned.find((run) => run.name === name)!) : results[name]) ?? [];
  return {
    reportsOf: (name: string) => reports.get(name)!,
    finished,
    /** The named run's spec files as they ended, once every run has. */
    async filesOf(name: string): Promise<FileResult[]> {
      const { code, output, results } = await finished();
      expect(results, `the runs wrote no results (exit ${code}):\n${output.slice(-3000)}`).toBeDefined();
      const files = runFiles(results!, name);
      expect(files.length, `${name} ran its spec files`).toBeGreaterThan(0);
      return files;
    },
  };
}

/** What failed in `files`: a file's own error, and each failed test with its messages. */
export const failuresIn = (files: FileResult[]): string[] =>
  files.flatMap((file) => [
    ...(file.message ? [`${file.name}: ${file.message}`] : []),
    ...file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${file.name} > ${test.title}: ${(test.failureMessages ?? []).join('\n')}`),
  ]);
