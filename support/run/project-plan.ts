// Owns the plan of contract runs that one vitest process runs as projects, a simulator each, which vitest.config.ts
// reads from CONTRACT_PROJECT_PLAN: the mutant matrix's mutants and controls, and the runs of the learning,
// layout-changed and contract-runs self-checks. One process for many runs pays vitest's start-up once (child-runs.ts
// `runPlannedProjects` starts it).

export const PROJECT_PLAN_VARIABLE = 'CONTRACT_PROJECT_PLAN';

export interface ProjectPlan {
  /** Where the suite's reporter writes each project's results (support/run/suite-reporter.ts). */
  resultsFile: string;
  /**
   * Projects at the same time. More than one: side by side, vitest giving each spec file a worker of its own (a run
   * of one or two files). One: one after another, each run's files all at once in one worker, as `npm run contract`
   * runs them (a run of many files, whose workers would cost more than the run).
   */
  runsAtOnce: number;
  runs: PlannedRun[];
}

/** One run: its project's name, its spec files, and the variables its simulator and suite read over the process's. */
export interface PlannedRun {
  name: string;
  specs: string[];
  env: Record<string, string>;
}

export const readProjectPlan = (raw: string | undefined): ProjectPlan | undefined =>
  raw ? (JSON.parse(raw) as ProjectPlan) : undefined;
