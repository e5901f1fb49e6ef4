// Owns the mutant matrix: the contract specs against the simulator once per mutant, and the verdict. A mutant is killed
// when a failure names its rule (or shows its `reportedAs` category, naming no rule) and none blames a rule wrongly; a
// layout's mutants stay unjudged when its control run (no mutant, same settings) fails, as a deadline too short for a
// loaded machine would fail every mutant. The mutants run in one vitest process, a project and a simulator each: 36
// processes cost some 60 CPU-seconds (issue 13). Full mode runs each alone: vitest would give each spec file a worker.
import { relative } from 'node:path';
import { MUTANTS, type MutantName } from '../../simulator/mutants.js';
import type { Layout } from '../../simulator/options.js';
import { rulesNamedIn } from '../evidence/failures.js';
import { specChecks } from './catalogue.js';
import { runVitest, runVitestWithResults, withResultsFile } from './child-runs.js';
import { SETUP_RULE } from './global-setup.js';
import { MUTANT_PLAN_VARIABLE, mutantProjectName, type MutantPlan, type MutantRun } from './mutant-plan.js';
import type { FileResult, ProjectResults } from './mutant-plan.js';

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

/** Runs of their own at the same time (each is a whole vitest). */
const RUNS_AT_ONCE = 3;
const FIRST_LINE_CHARS = 200;

type Planned = { mutant: MutantName; layout: Layout };

/** A run's spec files; a run of its own also keeps its output, which says why it stopped in setup. */
type Outcome = { files: FileResult[]; output: string };

const failedFiles = (files: FileResult[]) =>
  files.filter((file) => file.message || file.assertionResults.some((test) => test.status === 'failed'));

const failureMessages = (file: FileResult) => file.assertionResults.flatMap((test) => test.failureMessages ?? []);

/** `controlFailed`: the spec files that failed in the layout's control run, each with its first failure. */
export type Verdict = ReturnType<typeof judge> & { controlFailed: string[] };

/**
 * A failure may name only its own test's rule; in fast mode (`strict`) only the mutant's too, as in full
 * mode a mutant may truly break several (an update that stores nothing breaks every transition a PUT makes).
 */
function judge(run: Planned, { files, output }: Outcome, checks: ReturnType<typeof specChecks>, strict: boolean) {
  const failed = failedFiles(files);
  const failureText = [output, ...failed.flatMap((file) => [file.message ?? '', ...failureMessages(file)])].join('\n');
  const namedRules = rulesNamedIn(failureText);
  const { rule, reportedAs } = MUTANTS[run.mutant];
  const shown =
    reportedAs === undefined
      ? namedRules.includes(rule)
      : namedRules.length === 0 && failureText.includes(`${reportedAs}: `);
  const misattributed = failed.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .flatMap((test) => {
        const own = checks.find((check) => check.title === test.title && file.name.endsWith(check.file))?.rule;
        const named = rulesNamedIn((test.failureMessages ?? []).join('\n'));
        const wrong = named.filter((candidate) => candidate !== own || (strict && candidate !== rule));
        return wrong.length === 0 ? [] : [`${test.title} (rule ${own ?? 'unknown'}) named ${wrong.join(', ')}`];
      }),
  );
  const failedSpecs = failed.map((file) => relative(process.cwd(), file.name));
  const killed = shown && misattributed.length === 0;
  return { mutant: run.mutant, layout: run.layout, rule, failedSpecs, namedRules, misattributed, killed };
}

/** Each run on its own (as a user's run would go), `limit` at once; or all in one vitest process, a project each. */
async function runAll(runs: MutantRun[], alone: boolean, limit: number, env: NodeJS.ProcessEnv): Promise<Outcome[]> {
  if (runs.length === 0) return [];
  if (alone) {
    return inParallel(runs, limit, async (run) => {
      const args = ['--project', 'contract', ...run.specs];
      const { output, results } = await runVitestWithResults(args, { ...env, ...run.env });
      return { files: results?.testResults ?? [], output };
    });
  }
  const { code, output, results } = await withResultsFile<ProjectResults>((resultsFile) => {
    const plan: MutantPlan = { resultsFile, mutantsAtOnce: limit, mutants: runs };
    return runVitest(['--project', mutantProjectName('*')], { ...env, [MUTANT_PLAN_VARIABLE]: JSON.stringify(plan) });
  });
  if (!results) {
    const tail = output.slice(-3000);
    throw new Error(`mutant matrix: the run of ${runs.length} projects wrote no results (exit ${code}):\n${tail}`);
  }
  return runs.map((run) => ({ files: results[mutantProjectName(run.mutant, run.layout)] ?? [], output: '' }));
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

/** A control run's failed spec files, each with the first line of its first failure. */
function controlFailures({ files, output }: Outcome): string[] {
  const firstLine = (text: string) => text.split('\n')[0]!.slice(0, FIRST_LINE_CHARS);
  if (files.length === 0) {
    return [output ? `global setup (${firstLine(output.slice(-FIRST_LINE_CHARS))})` : 'no spec file ran'];
  }
  return failedFiles(files).map((file) => {
    const first = [file.message, ...failureMessages(file)].find(Boolean) ?? '';
    return `${relative(process.cwd(), file.name)} (${firstLine(first)})`;
  });
}

export interface MatrixOptions {
  mutants?: MutantName[];
  /** Every spec file per mutant instead of the spec files of its rule. */
  full?: boolean;
  /** Mutants whose spec files run at once (default: every mutant, or 3 runs of their own in full mode). */
  parallel?: number;
  layouts?: Layout[];
  /** Over the process's environment for every run (a reports folder of the runs' own). */
  env?: NodeJS.ProcessEnv;
}

export async function runMutantMatrix(options: MatrixOptions = {}): Promise<Verdict[]> {
  const checks = specChecks();
  const full = options.full ?? false;
  const mutants = options.mutants ?? (Object.keys(MUTANTS) as MutantName[]);
  const layouts = options.layouts ?? ['standard'];
  const plan = <M extends string>(mutant: M, layout: Layout, rules: string[]) => ({
    mutant,
    layout,
    env: { ...layoutEnv(layout), SIMULATOR_MUTANT: mutant === 'control' ? '' : mutant },
    specs: [...new Set(checks.filter((check) => full || rules.includes(check.rule)).map((check) => check.file))],
  });
  const planned = layouts.flatMap((layout) => mutants.map((mutant) => plan(mutant, layout, [MUTANTS[mutant].rule])));
  const rules = mutants.map((mutant) => MUTANTS[mutant].rule);
  const controls = [...new Set(layouts)].map((layout) => plan('control', layout, rules));
  const env = { ...process.env, ...MUTANT_ENV, ...options.env };
  // Together, one worker a project: a layout's spec files share a worker, and the layouts go in turn.
  const controlled = (await runAll(controls, full, full ? RUNS_AT_ONCE : 1, env)).map(controlFailures);
  const controlFailed = (layout: string) => controlled[controls.findIndex((control) => control.layout === layout)]!;

  const judged = planned.filter(({ layout }) => controlFailed(layout).length === 0);
  const together = full ? [] : judged.filter(({ mutant }) => MUTANTS[mutant].rule !== SETUP_RULE);
  const alone = judged.filter((run) => !together.includes(run));
  const outcomes = (
    await Promise.all([
      runAll(together, false, options.parallel ?? together.length, env),
      runAll(alone, true, options.parallel ?? RUNS_AT_ONCE, env),
    ])
  ).flat();
  const ran = [...together, ...alone];
  return planned.map((run) => ({
    ...judge(run, outcomes[ran.indexOf(run)] ?? { files: [], output: '' }, checks, !full),
    controlFailed: controlFailed(run.layout),
  }));
}

/** One line per mutant: verdict, what it breaks, failed specs, rules named; UNJUDGED when its control failed. */
export function formatMatrix(verdicts: Verdict[]): string {
  return verdicts
    .map(({ mutant, layout, rule, failedSpecs, namedRules, misattributed, controlFailed, killed }) => {
      const name = `${mutant}${layout === 'standard' ? '' : ` [${layout} layout]`} (breaks ${rule})`;
      if (controlFailed.length > 0) {
        return `UNJUDGED ${name} → not run: without the mutant, same settings, ${controlFailed.join('; ')}`;
      }
      const setup = namedRules.length ? 'the run setup (before any spec)' : 'no spec failed';
      const reportedAs = MUTANTS[mutant].reportedAs;
      const must = reportedAs ? ` (must be reported as ${reportedAs})` : '';
      const named = `${namedRules.join(', ') || 'no rule named'}${must}`;
      const wrong = misattributed.length > 0 ? ` — MISATTRIBUTED: ${misattributed.join('; ')}` : '';
      return `${killed ? 'killed  ' : 'SURVIVED'} ${name} → ${failedSpecs.join(', ') || setup} → ${named}${wrong}`;
    })
    .join('\n');
}
