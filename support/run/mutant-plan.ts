// Owns the plan the mutant matrix hands vitest.config.ts: which mutant runs which spec files in which
// layout, and how many at once. A file apart because every vitest start loads that config.

/** Carries the plan (JSON) from the matrix to vitest.config.ts. */
export const MUTANT_PLAN_VARIABLE = 'CONTRACT_MUTANT_PLAN';

export interface MutantPlan {
  /** Where support/run/project-results.ts writes the run's results by project. */
  resultsFile: string;
  /** Mutant projects whose spec files run at the same time, each in a worker of its own. */
  mutantsAtOnce: number;
  mutants: MutantRun[];
}

/** One mutant in one simulator layout: its spec files and the simulator's variables beyond SIMULATOR_MUTANT. */
export interface MutantRun {
  mutant: string;
  layout: string;
  specs: string[];
  env: Record<string, string>;
}

/** The matrix runs them all with `--project mutant:*`. */
export const mutantProjectName = (mutant: string, layout = 'standard'): string =>
  layout === 'standard' ? `mutant:${mutant}` : `mutant:${mutant}@${layout}`;

export const readMutantPlan = (raw: string | undefined): MutantPlan | undefined =>
  raw ? (JSON.parse(raw) as MutantPlan) : undefined;
