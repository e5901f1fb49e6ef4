// Owns how the mutant matrix hands its plan to vitest: which mutant runs which spec files, and how
// many mutants at once. Apart from support/run/mutant-matrix.ts because vitest.config.ts reads it,
// and every vitest start loads that config.

/** The environment variable that carries the plan (JSON) from the matrix to vitest.config.ts. */
export const MUTANT_PLAN_VARIABLE = 'CONTRACT_MUTANT_PLAN';

export interface MutantPlan {
  /** Where the run writes its results by project (support/run/project-results.ts). */
  resultsFile: string;
  /** Mutant projects whose spec files run at the same time (each in a worker of its own). */
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

/** The name of a mutant's vitest project: the matrix runs them all with `--project mutant:*`. */
export const mutantProjectName = (mutant: string, layout = 'standard'): string =>
  layout === 'standard' ? `mutant:${mutant}` : `mutant:${mutant}@${layout}`;

export function readMutantPlan(raw: string | undefined): MutantPlan | undefined {
  if (raw === undefined || raw === '') return undefined;
  return JSON.parse(raw) as MutantPlan;
}
