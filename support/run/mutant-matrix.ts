// Owns the mutant matrix: the contract specs against the simulator once per mutant, and the verdict
// (mutant → failed specs → rules named in the failures). A mutant is killed only when a failure
// names the rule it breaks; it survives when nothing fails or only unrelated rules fail. Fast mode
// runs, per mutant, the spec files of the rule it breaks; full mode every spec file.
import { relative } from 'node:path';
import { MUTANTS, type MutantName } from '../../simulator/mutants.js';
import { rulesNamedIn } from '../evidence/failures.js';
import { specChecks } from './coverage-map.js';
import { runVitestWithResults } from './child-runs.js';

export interface Verdict {
  mutant: MutantName;
  rule: string;
  failedSpecs: string[];
  namedRules: string[];
  /** Failures that do not name the rule of the spec they failed in (the wrong line of the documentation). */
  misattributed: string[];
  /** Some failure names the mutant's rule, and every failure names its own spec's rule. */
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

async function runMutant(mutant: MutantName, specFiles: string[]): Promise<Verdict> {
  const { output, results } = await runVitestWithResults(['--project', 'contract', ...specFiles], { ...process.env, ...MUTANT_ENV, SIMULATOR_MUTANT: mutant });
  // Without results the run died before tests (e.g. in global setup); its output still names the rule.
  const failed = (results?.testResults ?? []).filter((file) => file.message || file.assertionResults.some((test) => test.status === 'failed'));
  const failureText = [output, ...failed.flatMap((file) => [file.message ?? '', ...file.assertionResults.flatMap((test) => test.failureMessages ?? [])])].join('\n');
  const namedRules = rulesNamedIn(failureText);
  const rule = MUTANTS[mutant].rule;
  const checks = specChecks();
  const misattributed = failed.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .flatMap((test) => {
        const own = checks.find((check) => check.title === test.title && file.name.endsWith(check.file))?.rule;
        const named = rulesNamedIn((test.failureMessages ?? []).join('\n'));
        return own !== undefined && named.every((candidate) => candidate === own) && named.length > 0 ? [] : [`${test.title} (rule ${own ?? 'unknown'}) named ${named.join(', ') || 'no rule'}`];
      }),
  );
  return { mutant, rule, failedSpecs: failed.map((file) => relative(process.cwd(), file.name)), namedRules, misattributed, killed: namedRules.includes(rule) && misattributed.length === 0 };
}

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
  /** Mutant runs at once. */
  parallel?: number;
}

export async function runMutantMatrix(options: MatrixOptions = {}): Promise<Verdict[]> {
  const checks = specChecks();
  return inParallel(options.mutants ?? (Object.keys(MUTANTS) as MutantName[]), options.parallel ?? 3, (mutant) => {
    const ownSpecs = [...new Set(checks.filter((check) => check.rule === MUTANTS[mutant].rule).map((check) => check.file))];
    return runMutant(mutant, options.full ? [] : ownSpecs);
  });
}

/** One line per mutant: verdict, what it breaks, which specs failed and which rules they named. */
export function formatMatrix(verdicts: Verdict[]): string {
  return verdicts
    .map(
      (verdict) =>
        `${verdict.killed ? 'killed  ' : 'SURVIVED'} ${verdict.mutant} (breaks ${verdict.rule}) → ${verdict.failedSpecs.join(', ') || (verdict.namedRules.length ? 'the run setup (before any spec)' : 'no spec failed')} → ${verdict.namedRules.join(', ') || 'no rule named'}${verdict.misattributed.length ? ` — MISATTRIBUTED: ${verdict.misattributed.join('; ')}` : ''}`,
    )
    .join('\n');
}
