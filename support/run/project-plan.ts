// Owns the plan of contract runs that one vitest process runs as projects, which vitest.config.ts reads from
// CONTRACT_PROJECT_PLAN: the mutant matrix's mutants and controls, and the runs of the learning, layout-changed and
// contract-runs self-checks. One process for many runs pays vitest's start-up once (child-runs.ts
// `runPlannedProjects` starts it).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FileResult, ProjectResults } from './suite-reporter.js';

export const PROJECT_PLAN_VARIABLE = 'CONTRACT_PROJECT_PLAN';

export interface ProjectPlan {
  /** Where the suite's reporter writes each project's results (support/run/suite-reporter.ts). */
  resultsFile: string;
  runs: PlannedRun[];
  /**
   * Unset: runs one after another, each run's files all at once in one worker, as `npm run contract` runs them (runs
   * of many files). Set: each spec file is a run of its own, with its own variables (`fileEnv`) and a simulator of its
   * own on its own clock, this many at once, one after another in each worker (runs of a file or two, whose workers
   * would cost more than the runs).
   */
  filesAtOnce?: number;
}

/**
 * One project: its name, its spec files, the variables its simulator and suite read over the process's, and, where
 * files are runs of their own, each file's own variables over those.
 */
export interface PlannedRun {
  name: string;
  specs: string[];
  env: Record<string, string>;
  fileEnv?: Record<string, Record<string, string>>;
}

/** Where file runs are written: inside the project, where vitest finds test files; .tmp/ is ignored by git and lint. */
const SCRATCH = '.tmp';

/**
 * Runs of one spec file each, with their variables, in one project: each run is a file of its own in a fresh folder
 * under .tmp/ that imports its spec with the run's number as a query. vitest lists a file once in a project but
 * evaluates a module once per query, so a worker runs many runs of the same spec one after another, importing the
 * support library once (a worker per project cost more than the runs). The project's results, read back with
 * `filesByRun`, give each run its files, named as their specs; `remove` deletes the folder once they have run.
 */
export function packFileRuns<R extends { specs: string[]; env: Record<string, string> }>(runs: R[], name: string) {
  mkdirSync(SCRATCH, { recursive: true });
  const folder = mkdtempSync(join(SCRATCH, 'file-runs-'));
  const project: Required<PlannedRun> = { name, specs: [], env: {}, fileEnv: {} };
  const placed = new Map<string, { run: R; spec: string }>();
  runs.forEach((run, index) => {
    for (const spec of run.specs) {
      const file = join(folder, String(index), spec);
      const target = relative(dirname(file), resolve(spec)).split(sep).join('/');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `import '${target}?run=${index}';\n`);
      project.specs.push(file);
      project.fileEnv[file] = run.env;
      placed.set(resolve(file), { run, spec });
    }
  });
  const filesByRun = (results: ProjectResults) => {
    const byRun = new Map<R, FileResult[]>();
    for (const file of results[name] ?? []) {
      const at = placed.get(file.name);
      if (at) byRun.set(at.run, [...(byRun.get(at.run) ?? []), { ...file, name: resolve(at.spec) }]);
    }
    return byRun;
  };
  const remove = () => rmSync(folder, { recursive: true, force: true });
  return { projects: [project], filesByRun, remove };
}

export const readProjectPlan = (raw: string | undefined): ProjectPlan | undefined =>
  raw ? (JSON.parse(raw) as ProjectPlan) : undefined;
