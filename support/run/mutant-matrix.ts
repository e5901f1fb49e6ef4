// Owns the mutant matrix: the contract specs against the simulator once per mutant, and the verdict
// (mutant → failed specs → rules named in the failures). A mutant is killed only when a failure
// names the rule it breaks and no failure blames a rule wrongly (see `judge`): a test that could
// not reach its own rule because of the mutant reports a precondition not met, naming no rule. A
// mutant that keeps the suite from judging its rule at all is killed when its spec reports the
// category the mutant declares (`reportedAs`) and names no rule. It survives when nothing fails or
// only other rules are blamed. Fast mode runs, per mutant, the spec files of the rule it breaks;
// full mode every spec file.
//
// First, per layout, the unmutated simulator runs the same spec files under the same settings (the
// control run): a spec that fails there (a deadline too short for a loaded machine) would fail
// against every mutant too, so no mutant of a layout whose control failed counts as killed.
//
// Every mutant runs in one vitest process, as a project of its own with a simulator of its own
// (vitest.config.ts builds the projects from the plan): vitest and the transform of the support
// library are paid once rather than once per mutant (36 processes cost some 60 CPU-seconds, issue
// 13). A mutant that breaks a rule global setup checks would stop every project of that run with
// it, so those run alone, as a user's run would; so does every mutant in full mode, where vitest
// would give each of a project's many spec files a worker of its own (projects run side by side
// only with more than one worker each), where a run of its own runs them all in one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MUTANTS, type MutantName } from '../../simulator/mutants.js';
import type { Layout } from '../../simulator/options.js';
import { rulesNamedIn } from '../evidence/failures.js';
import { specChecks, type SpecCheck } from './coverage-map.js';
import { runVitest, runVitestWithResults } from './child-runs.js';
import { RULES_CHECKED_IN_SETUP } from './global-setup.js';
import { MUTANT_PLAN_VARIABLE, mutantProjectName, type MutantPlan, type MutantRun } from './mutant-plan.js';
import type { FileResult, ProjectResults } from './project-results.js';

export interface Verdict {
  mutant: MutantName;
  /** The simulator layout it ran in: every mutant must be expressible, and killed, in each. */
  layout: Layout;
  rule: string;
  failedSpecs: string[];
  namedRules: string[];
  /** Failures that blame a rule the mutant does not break (the wrong line of the documentation). */
  misattributed: string[];
  /** Spec files that failed against the unmutated simulator of this layout, with their first failure: no kill then. */
  controlFailed: string[];
  /** The control run passed, a failure names the mutant's rule (or shows its `reportedAs` category), none another. */
  killed: boolean;
}

/** Mutants make every wait fail; a short deadline and a fast simulator keep the matrix quick. */
const MUTANT_ENV = {
  CONTRACT_BASE_URL: '',
  CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
  SIMULATOR_AVAILABILITY_DELAY_MS: '40',
  SIMULATOR_BACKGROUND_RECORDS: '600',
  SIMULATOR_FAULT_RATE: '0',
};

/**
 * The simulator's variables per layout. The vendor's lists come ten records a page (its published
 * default): 40 background records still span several pages, where 600 would make every list read
 * 60 requests.
 */
const LAYOUT_ENV: Record<Layout, Record<string, string>> = {
  standard: { SIMULATOR_LAYOUT: 'standard' },
  alternate: { SIMULATOR_LAYOUT: 'alternate' },
  vendor: { SIMULATOR_LAYOUT: 'vendor', SIMULATOR_BACKGROUND_RECORDS: '15' },
};

/** Judges one mutant's run from its spec files' results and, for a run stopped in setup, its output. */
type Judge = (run: PlannedRun, files: FileResult[], setupOutput?: string) => Verdict;

const failedFiles = (files: FileResult[]): FileResult[] =>
  files.filter((file) => file.message || file.assertionResults.some((test) => test.status === 'failed'));

/**
 * Fast mode runs only the spec files of the mutant's rule: there, no failure may name another rule
 * (a test the mutant keeps from its own rule reports a precondition not met). Full mode runs every
 * spec, and a mutant may break several rules in truth (an update that stores nothing breaks every
 * transition a PUT of an existing person makes): there, a failure may name only its own test's rule.
 */
function judge(checks: SpecCheck[], strict: boolean): Judge {
  return ({ mutant, layout }, files, setupOutput = '') => {
    const failed = failedFiles(files);
    const failureText = [
      setupOutput,
      ...failed.flatMap((file) => [
        file.message ?? '',
        ...file.assertionResults.flatMap((test) => test.failureMessages ?? []),
      ]),
    ].join('\n');
    const namedRules = rulesNamedIn(failureText);
    const { rule, reportedAs } = MUTANTS[mutant];
    // A mutant reported in a category of its own is shown by that category, with no rule blamed for it.
    const inCategory = namedRules.length === 0 && failureText.includes(`${reportedAs}: `);
    const shown = reportedAs === undefined ? namedRules.includes(rule) : inCategory;
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
    return { mutant, layout, rule, failedSpecs, namedRules, misattributed, controlFailed: [], killed };
  };
}

/** A mutant in one layout, as the matrix plans it; its `env` sets SIMULATOR_MUTANT. */
type PlannedRun = MutantRun & { mutant: MutantName; layout: Layout };

/** The unmutated simulator in one layout: the project `mutant:control`, whose env clears SIMULATOR_MUTANT. */
type ControlRun = MutantRun & { layout: Layout };

/** A run on its own, as a user's run against that simulator would go; without results it died in global setup. */
async function runAlone(run: MutantRun, env: NodeJS.ProcessEnv): Promise<{ files: FileResult[]; output: string }> {
  const args = ['--project', 'contract', ...run.specs];
  const { output, results } = await runVitestWithResults(args, { ...env, ...run.env });
  return { files: results?.testResults ?? [], output };
}

/** Many runs in one vitest process, a project each: their spec files' results by run. */
async function runTogether(runs: MutantRun[], runsAtOnce: number, env: NodeJS.ProcessEnv): Promise<FileResult[][]> {
  const scratch = mkdtempSync(join(tmpdir(), 'mutant-matrix-'));
  const resultsFile = join(scratch, 'results.json');
  const plan: MutantPlan = { resultsFile, mutantsAtOnce: runsAtOnce, mutants: runs };
  try {
    const planned = { ...env, [MUTANT_PLAN_VARIABLE]: JSON.stringify(plan) };
    const { code, output } = await runVitest(['--project', mutantProjectName('*')], planned);
    let results: ProjectResults;
    try {
      results = JSON.parse(readFileSync(resultsFile, 'utf8')) as ProjectResults;
    } catch {
      const tail = output.slice(-3000);
      throw new Error(`mutant matrix: the run of ${runs.length} projects wrote no results (exit ${code}):\n${tail}`);
    }
    return runs.map((run) => results[mutantProjectName(run.mutant, run.layout)] ?? []);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const CONTROL = 'control';
const FIRST_LINE_CHARS = 200;

/**
 * The control runs: per layout, the spec files its mutants run, against the unmutated simulator
 * under the same settings, run as the mutants are (together, or each on its own in full mode).
 * Returns per layout the spec files that failed, each with its first failure.
 */
async function runControls(
  planned: PlannedRun[],
  full: boolean,
  env: NodeJS.ProcessEnv,
): Promise<Map<Layout, string[]>> {
  const layouts = [...new Set(planned.map((run) => run.layout))];
  const controls: ControlRun[] = layouts.map((layout) => ({
    mutant: CONTROL,
    layout,
    env: { ...LAYOUT_ENV[layout], SIMULATOR_MUTANT: '' },
    specs: [...new Set(planned.filter((run) => run.layout === layout).flatMap((run) => run.specs))],
  }));
  const results = full
    ? await inParallel(controls, RUNS_AT_ONCE, async (control) => {
        const { files, output } = await runAlone(control, env);
        const setup = { name: 'global setup', message: output.slice(-FIRST_LINE_CHARS), assertionResults: [] };
        return files.length > 0 ? files : [setup];
      })
    : // One worker a project: every spec file of a layout runs in that worker, and the layouts one after another.
      await runTogether(controls, 1, env);
  return new Map(
    controls.map((control, index) => {
      const files = results[index]!;
      const failures = failedFiles(files).map((file) => {
        const messages = [file.message, ...file.assertionResults.flatMap((test) => test.failureMessages ?? [])];
        const first = messages.find(Boolean) ?? '';
        return `${relative(process.cwd(), file.name)} (${first.split('\n')[0]!.slice(0, FIRST_LINE_CHARS)})`;
      });
      return [control.layout, files.length === 0 ? ['no spec file ran'] : failures];
    }),
  );
}

/** Mutants that run as processes of their own at the same time (each is a whole vitest). */
const RUNS_AT_ONCE = 3;

async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

export interface MatrixOptions {
  /** Default: every mutant. */
  mutants?: MutantName[];
  /** Every spec file per mutant instead of the spec files of its rule. */
  full?: boolean;
  /** Mutants whose spec files run at once (default: every mutant, or 3 runs of their own in full mode). */
  parallel?: number;
  /** The simulator layouts to run every mutant in (default: the standard one); one vitest process serves them all. */
  layouts?: Layout[];
  /** Over the process's environment for every run (a reports folder of the runs' own). */
  env?: NodeJS.ProcessEnv;
}

export async function runMutantMatrix(options: MatrixOptions = {}): Promise<Verdict[]> {
  const checks = specChecks();
  const verdictOn = judge(checks, !options.full);
  const mutants = options.mutants ?? (Object.keys(MUTANTS) as MutantName[]);
  const planned: PlannedRun[] = (options.layouts ?? ['standard']).flatMap((layout) =>
    mutants.map((mutant) => ({
      mutant,
      layout,
      env: { ...LAYOUT_ENV[layout], SIMULATOR_MUTANT: mutant },
      specs: options.full
        ? [...new Set(checks.map((check) => check.file))]
        : [...new Set(checks.filter((check) => check.rule === MUTANTS[mutant].rule).map((check) => check.file))],
    })),
  );
  const env = { ...process.env, ...MUTANT_ENV, ...options.env };
  const controlFailed = await runControls(planned, options.full ?? false, env);
  const judged = planned.filter(({ layout }) => controlFailed.get(layout)!.length === 0);
  const inSetup = ({ mutant }: PlannedRun) => RULES_CHECKED_IN_SETUP.includes(MUTANTS[mutant].rule);
  const together = options.full ? [] : judged.filter((run) => !inSetup(run));
  const alone = judged.filter((entry) => !together.includes(entry));
  const verdicts = (
    await Promise.all([
      together.length === 0
        ? []
        : runTogether(together, options.parallel ?? together.length, env).then((results) =>
            together.map((run, index) => verdictOn(run, results[index]!)),
          ),
      inParallel(alone, options.parallel ?? RUNS_AT_ONCE, async (run) => {
        const { files, output } = await runAlone(run, env);
        // Without results the run died before tests (in global setup); its output names the rule.
        return verdictOn(run, files, output);
      }),
    ])
  ).flat();
  return planned.map(
    ({ mutant, layout }) =>
      verdicts.find((verdict) => verdict.mutant === mutant && verdict.layout === layout) ?? {
        mutant,
        layout,
        rule: MUTANTS[mutant].rule,
        failedSpecs: [],
        namedRules: [],
        misattributed: [],
        controlFailed: controlFailed.get(layout)!,
        killed: false,
      },
  );
}

/**
 * One line per mutant: verdict, what it breaks, which specs failed and which rules they named (or
 * the category it must be reported in); a mutant of a layout whose control run failed is UNJUDGED.
 */
export function formatMatrix(verdicts: Verdict[]): string {
  return verdicts
    .map((verdict) => {
      const layout = verdict.layout === 'standard' ? '' : ` [${verdict.layout} layout]`;
      const name = `${verdict.mutant}${layout} (breaks ${verdict.rule})`;
      if (verdict.controlFailed.length > 0) {
        return `UNJUDGED ${name} → not run: without the mutant, same settings, ${verdict.controlFailed.join('; ')}`;
      }
      const setup = verdict.namedRules.length ? 'the run setup (before any spec)' : 'no spec failed';
      const failed = verdict.failedSpecs.join(', ') || setup;
      const reportedAs = MUTANTS[verdict.mutant].reportedAs;
      const must = reportedAs ? ` (must be reported as ${reportedAs})` : '';
      const named = `${verdict.namedRules.join(', ') || 'no rule named'}${must}`;
      const misattributed =
        verdict.misattributed.length > 0 ? ` — MISATTRIBUTED: ${verdict.misattributed.join('; ')}` : '';
      return `${verdict.killed ? 'killed  ' : 'SURVIVED'} ${name} → ${failed} → ${named}${misattributed}`;
    })
    .join('\n');
}
