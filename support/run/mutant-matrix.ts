// Owns running the mutant matrix: the contract specs against the simulator once per mutant, and beside them a
// control run per layout (no mutant, same settings, same concurrency); support/run/mutant-verdict.ts judges each.
// A layout's mutants stay unjudged when its control run fails. Each spec file of a run is a run of its own, on a
// simulator of its own and the simulated clock, and all go in one vitest process, one worker running them one after
// another (project-plan.ts `packFileRuns`): a worker per run cost twice the CPU. Full mode runs each run alone.
import { MUTANT_NAMES, MUTANTS, type MutantName } from '../../simulator/mutants.js';
import type { Layout } from '../../simulator/options.js';
import { specChecks } from './coverage-map.js';
import { onSimulatedClock, runPlannedProjects, runVitestWithResults } from './child-runs.js';
import { packFileRuns } from './project-plan.js';
import { SETUP_RULE, SIMULATED_CLOCK_VARIABLE } from './global-setup.js';
import { controlFailures, judge, type Outcome, type Verdict } from './mutant-verdict.js';

/** Mutants make every wait fail; a short deadline and a fast simulator keep the matrix quick. */
const MUTANT_ENV = {
  CONTRACT_BASE_URL: '',
  CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
  SIMULATOR_AVAILABILITY_DELAY_MS: '40',
  SIMULATOR_BACKGROUND_RECORDS: '600',
  SIMULATOR_FAULT_RATE: '0',
};

/** The vendor's lists come ten records a page: 15 records span pages, where 600 cost 60 requests a list. */
const layoutEnv = (layout: Layout): Record<string, string> =>
  layout === 'vendor' ? { SIMULATOR_LAYOUT: layout, SIMULATOR_BACKGROUND_RECORDS: '15' } : { SIMULATOR_LAYOUT: layout };

/** One mutant, or none (its layout's control run), in one simulator layout: its spec files and simulator variables. */
interface MutantRun {
  mutant: string;
  layout: string;
  specs: string[];
  env: Record<string, string>;
}

/** Runs of their own at the same time (each is a whole vitest). */
const RUNS_AT_ONCE = 3;
/** Spec files of the one process at the same time, a worker each: on the simulated clock, CPU is all they wait for. */
const FILES_AT_ONCE = 1;

/** Each run on its own (as a user's run would go), `limit` at once; or each file a run, in one vitest process. */
async function runAll(runs: MutantRun[], alone: boolean, limit: number, env: NodeJS.ProcessEnv): Promise<Outcome[]> {
  if (runs.length === 0) return [];
  if (alone) {
    return inParallel(runs, limit, async (run) => {
      const args = ['--project', 'contract', ...run.specs];
      const { output, results } = await runVitestWithResults(args, { ...env, ...run.env });
      return { files: results?.testResults ?? [], output };
    });
  }
  const { projects, filesByRun, remove } = packFileRuns(runs, 'runs');
  try {
    const { code, output, results } = await runPlannedProjects(projects, { ...env, ...onSimulatedClock() }, limit);
    if (!results) {
      const tail = output.slice(-3000);
      throw new Error(`mutant matrix: the run of ${runs.length} runs wrote no results (exit ${code}):\n${tail}`);
    }
    const files = filesByRun(results);
    return runs.map((run) => ({ files: files.get(run) ?? [], output: '' }));
  } finally {
    remove();
  }
}

async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  const queue = items.entries(); // one iterator: each lane takes the next item when it is free
  const lane = async () => {
    for (const [index, item] of queue) results[index] = await work(item);
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

/** One matrix: its mutants, the simulator layouts each runs in, and its runs' own settings. */
export interface MatrixOptions {
  mutants?: MutantName[];
  layouts?: Layout[];
  /** The simulator's and suite's variables for every run of this matrix, over the process's. */
  env?: Record<string, string>;
}

export interface MatricesOptions {
  /** Every spec file per mutant instead of the spec files of its rule. */
  full?: boolean;
  /** Spec files run at once (default 1), or in full mode runs of their own (default 3). */
  parallel?: number;
  /** Over the process's environment for every run of every matrix (a reports folder of the runs' own). */
  env?: NodeJS.ProcessEnv;
}

/** Each mutant of `matrix` in each of its layouts, and a control run per layout: spec files and variables. */
function planMatrix({ mutants = MUTANT_NAMES, layouts = ['standard'], env = {} }: MatrixOptions, full: boolean) {
  const checks = specChecks();
  const plan = <M extends MutantName | 'control'>(mutant: M, layout: Layout, rules: string[]) => ({
    mutant,
    layout,
    env: { ...env, ...layoutEnv(layout), SIMULATOR_MUTANT: mutant === 'control' ? '' : mutant },
    specs: [...new Set(checks.filter((check) => full || rules.includes(check.rule)).map((check) => check.file))],
  });
  const rules = mutants.map((mutant) => MUTANTS[mutant].rule);
  return {
    planned: layouts.flatMap((layout) => mutants.map((mutant) => plan(mutant, layout, [MUTANTS[mutant].rule]))),
    controls: [...new Set(layouts)].map((layout) => plan('control', layout, rules)),
  };
}

/**
 * The verdicts of each matrix, all run in one vitest process but those that stop in setup: one start-up, and as few
 * projects as hold each spec file once over them all.
 */
export async function runMutantMatrices(
  matrices: MatrixOptions[],
  options: MatricesOptions = {},
): Promise<Verdict[][]> {
  const checks = specChecks();
  const full = options.full ?? false;
  const plans = matrices.map((matrix) => planMatrix(matrix, full));
  const env = { ...process.env, ...MUTANT_ENV, ...options.env };
  // The controls run with the mutants, as they do.
  const runs = plans.flatMap(({ controls, planned }) => [...controls, ...planned]);
  const together = full ? [] : runs.filter(({ mutant }) => mutant === 'control' || MUTANTS[mutant].rule !== SETUP_RULE);
  const alone = runs.filter((run) => !together.includes(run));
  const outcomes = (
    await Promise.all([
      runAll(together, false, options.parallel ?? FILES_AT_ONCE, env),
      // A run that stops in setup stops in global setup, which a simulated clock's run leaves to its worker: real.
      runAll(alone, true, options.parallel ?? RUNS_AT_ONCE, { ...env, [SIMULATED_CLOCK_VARIABLE]: '' }),
    ])
  ).flat();
  const ran: MutantRun[] = [...together, ...alone];
  const outcomeOf = (run: MutantRun): Outcome => outcomes[ran.indexOf(run)] ?? { files: [], output: '' };
  return plans.map(({ controls, planned }) => {
    const controlFailed = new Map(controls.map((control) => [control.layout, controlFailures(outcomeOf(control))]));
    return planned.map((run) => judge(run, outcomeOf(run), checks, !full, controlFailed.get(run.layout)!));
  });
}

/** One matrix's verdicts (`npm run mutants`). */
export const runMutantMatrix = async ({ full, parallel, ...matrix }: MatrixOptions & MatricesOptions = {}) =>
  (await runMutantMatrices([matrix], { full, parallel }))[0]!;
