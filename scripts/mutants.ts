/**
 * npm run mutants [-- --full] [-- --only name,name]: runs the contract specs against the simulator
 * once per mutant and prints the kill matrix (mutant → failed specs → rules named in the failures).
 * A mutant is killed only when a failure names the rule it breaks; it survives when nothing fails
 * or only unrelated rules fail. Exits non-zero on any survivor.
 *
 * Fast mode (default, used by npm test) runs, per mutant, the spec files of the rule it breaks;
 * --full runs every spec file per mutant.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MUTANTS, type MutantName } from '../simulator/mutants.js';
import { rulesNamedIn } from '../support/rules.js';
import { specChecks } from './coverage-map.js';
import { runVitest } from './vitest-run.js';

interface Verdict {
  mutant: MutantName;
  rule: string;
  failedSpecs: string[];
  namedRules: string[];
  killed: boolean;
}

interface JsonReport {
  testResults?: Array<{ name: string; message?: string; assertionResults?: Array<{ status: string; failureMessages?: string[] }> }>;
}

/** Mutants make every wait fail; a short deadline and a fast simulator keep the matrix quick. */
const MUTANT_ENV = {
  CONTRACT_BASE_URL: '',
  CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
  SIMULATOR_AVAILABILITY_DELAY_MS: '40',
  SIMULATOR_BACKGROUND_RECORDS: '600',
  SIMULATOR_FAULT_RATE: '0',
};

async function runMutant(mutant: MutantName, specFiles: string[], scratch: string): Promise<Verdict> {
  const outputFile = join(scratch, `${mutant}.json`);
  const { output } = await runVitest(
    ['--project', 'contract', '--reporter=json', `--outputFile=${outputFile}`, ...specFiles],
    { ...process.env, ...MUTANT_ENV, SIMULATOR_MUTANT: mutant },
    { quiet: true },
  );
  let report: JsonReport = {};
  try {
    report = JSON.parse(readFileSync(outputFile, 'utf8')) as JsonReport;
  } catch {
    // No report: the run died before tests (e.g. in global setup); its output still names the rule.
  }
  const failed = (report.testResults ?? []).filter((file) => file.message || file.assertionResults?.some((test) => test.status === 'failed'));
  const failureText = [output, ...failed.flatMap((file) => [file.message ?? '', ...(file.assertionResults ?? []).flatMap((test) => test.failureMessages ?? [])])].join('\n');
  const namedRules = rulesNamedIn(failureText);
  const rule = MUTANTS[mutant].rule;
  return { mutant, rule, failedSpecs: failed.map((file) => relative(process.cwd(), file.name)), namedRules, killed: namedRules.includes(rule) };
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

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<number> {
  const full = process.argv.includes('--full');
  const only = option('--only')?.split(',');
  const unknown = only?.filter((name) => !(name in MUTANTS)) ?? [];
  if (unknown.length) {
    console.error(`mutants: unknown mutant(s) ${unknown.join(', ')}; known: ${Object.keys(MUTANTS).join(', ')}`);
    return 2;
  }
  const mutants = (only ?? Object.keys(MUTANTS)) as MutantName[];
  const checks = specChecks();
  const scratch = mkdtempSync(join(tmpdir(), 'mutants-'));
  const started = Date.now();
  console.log(`mutants: ${mutants.length} mutant(s), ${full ? 'every spec file per mutant' : "the spec files of each mutant's rule"}`);
  try {
    const verdicts = await inParallel(mutants, Number(option('--parallel') ?? 3), (mutant) => {
      const ownSpecs = [...new Set(checks.filter((check) => check.rule === MUTANTS[mutant].rule).map((check) => check.file))];
      return runMutant(mutant, full ? [] : ownSpecs, scratch);
    });
    console.log('\nmutant → failed specs → rules named in the failures');
    for (const verdict of verdicts) {
      console.log(
        `${verdict.killed ? 'killed  ' : 'SURVIVED'} ${verdict.mutant} (breaks ${verdict.rule}) → ${verdict.failedSpecs.join(', ') || (verdict.namedRules.length ? 'the run setup (before any spec)' : 'no spec failed')} → ${verdict.namedRules.join(', ') || 'no rule named'}`,
      );
    }
    const survivors = verdicts.filter((verdict) => !verdict.killed);
    console.log(`\nmutants: ${verdicts.length - survivors.length} killed, ${survivors.length} survived in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return survivors.length ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
