// Owns the plan of contract runs that one vitest process runs as projects, which vitest.config.ts reads from
// CONTRACT_PROJECT_PLAN: the mutant matrix's mutants and controls, and the runs of the learning, layout-changed and
// contract-runs self-checks. One process for many runs pays vitest's start-up once (child-runs.ts
// `runPlannedProjects` starts it).

import { relative } from 'node:path';
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

/**
 * Runs of one spec file each, with their variables, in as few projects as hold each file once (a vitest project
 * lists a file once): a project's workers run its files one after another, so a worker serves many runs. The
 * projects' results, read back with `filesByRun`, give each run its files.
 */
export function packFileRuns<R extends { specs: string[]; env: Record<string, string> }>(
  runs: R[],
  name: (index: number) => string,
): { projects: PlannedRun[]; filesByRun: (results: ProjectResults) => Map<R, FileResult[]> } {
  const projects: PlannedRun[] = [];
  const placed = new Map<string, R>();
  for (const run of runs)
    for (const spec of run.specs) {
      let project = projects.find((candidate) => !candidate.specs.includes(spec));
      if (!project) projects.push((project = { name: name(projects.length), specs: [], env: {}, fileEnv: {} }));
      project.specs.push(spec);
      project.fileEnv![spec] = run.env;
      placed.set(`${project.name} ${spec}`, run);
    }
  // A result names its file by its absolute path; the runs name theirs from the working folder.
  const filesByRun = (results: ProjectResults) => {
    const byRun = new Map<R, FileResult[]>();
    for (const [project, files] of Object.entries(results))
      for (const file of files) {
        const run = placed.get(`${project} ${relative(process.cwd(), file.name)}`);
        if (run) byRun.set(run, [...(byRun.get(run) ?? []), file]);
      }
    return byRun;
  };
  return { projects, filesByRun };
}

export const readProjectPlan = (raw: string | undefined): ProjectPlan | undefined =>
  raw ? (JSON.parse(raw) as ProjectPlan) : undefined;
