// Owns the mutant matrix's plan, which vitest.config.ts reads from CONTRACT_MUTANT_PLAN: which mutant runs which spec
// files in which layout, and where the suite's reporter writes their results.

export const MUTANT_PLAN_VARIABLE = 'CONTRACT_MUTANT_PLAN';

export interface MutantPlan {
  resultsFile: string;
  /** Mutant projects whose spec files run at the same time, each in a worker of its own. */
  mutantsAtOnce: number;
  mutants: MutantRun[];
}

/** One mutant in one simulator layout: its spec files and the simulator's variables. */
export interface MutantRun {
  mutant: string;
  layout: string;
  specs: string[];
  env: Record<string, string>;
}

export const mutantProjectName = (mutant: string, layout = 'standard'): string =>
  layout === 'standard' ? `mutant:${mutant}` : `mutant:${mutant}@${layout}`;

export const readMutantPlan = (raw: string | undefined): MutantPlan | undefined =>
  raw ? (JSON.parse(raw) as MutantPlan) : undefined;
