// Owns the mutant matrix's verdict on one run, and its lines. As mutation testing tools count a kill, a mutant is
// killed only by a test of its own rule that failed for that rule: in the step that exercises it (the mutant's
// `exercisedIn`), as a broken rule, or for a mutant with `reportedAs` in that category. A failed Given, a crash of the
// suite's own code and a failure with no verdict (vitest's own timeout) say nothing about the rule: they leave the
// mutant "not judged", as does a control run (no mutant, same settings) that failed. Every judgement reads the
// verdict's fields the reporter wrote (`failures`: category, rule, step), never a message's words.
import { relative } from 'node:path';
import { MUTANTS, type Mutant, type MutantName } from '../../simulator/mutants.js';
import type { Layout } from '../../simulator/options.js';
import type { specChecks } from './coverage-map.js';
import { SETUP_RULE } from './global-setup.js';
import type { Failure, FileResult } from './suite-reporter.js';

type Planned = { mutant: MutantName; layout: Layout };

/** A run's spec files; a run of its own also keeps its output, which says why it stopped in setup. */
export type Outcome = { files: FileResult[]; output: string };

type Judgement = 'killed' | 'survived' | 'not judged';

export interface Verdict extends Planned {
  rule: string;
  judgement: Judgement;
  /** Why it is not killed: what its own tests failed with instead, or why nothing could be judged. */
  reasons: string[];
  failedSpecs: string[];
  namedRules: string[];
  misattributed: string[];
  /** The spec files that failed in the layout's control run, each with its first failure. */
  controlFailed: string[];
}

const SHOWN_CHARS = 200;
const CRASHES = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError']);

const failedFiles = (files: FileResult[]) =>
  files.filter((file) => file.message || file.assertionResults.some((test) => test.status === 'failed'));

const failureMessages = (file: FileResult) => file.assertionResults.flatMap((test) => test.failureMessages ?? []);

/** A failure's first line, cut short for a matrix line. */
const firstLine = (text: string): string => text.split('\n')[0]!.slice(0, SHOWN_CHARS);

/** The rules a run's failures found broken, once each. */
const rulesBroken = (failures: Failure[]): string[] => [
  ...new Set(failures.flatMap(({ category, rule }) => (category === 'Broken rule' && rule ? [rule] : []))),
];

/** The rule a run that stopped in global setup names as broken; its error reaches only the output, as text. */
const setupRulesIn = (output: string): string[] => [
  ...new Set([...output.matchAll(/Broken rule ([a-z0-9.-]+)/g)].map((match) => match[1]!)),
];

/** The phase of a failure's step ("Then"), or undefined outside any step. */
const phaseOf = ({ step }: Failure): string | undefined => step?.split(' ')[0];

/** Why a failure judges nothing: a Given not met, the suite's own crash, a failure with no verdict; else undefined. */
function noVerdict(failure: Failure): string | undefined {
  const shown = firstLine(failure.message);
  // A category failure in a Given keeps its category and names its step.
  if (failure.category === 'Precondition not met' || (failure.category !== undefined && phaseOf(failure) === 'Given'))
    return `a Given failed (${shown})`;
  if (failure.category === 'Suite error' || (failure.category === undefined && CRASHES.has(failure.name ?? '')))
    return `the suite crashed (${shown})`;
  if (failure.category === undefined) return `no verdict (${shown})`;
  return undefined;
}

/** The step of the mutant's rule's spec that must fail in `layout`. */
const stepIn = ({ exercisedIn }: Mutant, layout: Layout): string =>
  typeof exercisedIn === 'string' ? exercisedIn : exercisedIn[layout];

/** A failure kills `mutant`: its rule broken, or its category shown, in the step that exercises it. */
function kills(failure: Failure, { rule, reportedAs }: Mutant, exercisedIn: string): boolean {
  if (reportedAs !== undefined) return failure.category === reportedAs && phaseOf(failure) === exercisedIn;
  return failure.category === 'Broken rule' && failure.rule === rule && phaseOf(failure) === exercisedIn;
}

/** What a failure of the mutant's own test that did not kill it showed instead. */
function insteadOf(failure: Failure, { rule, reportedAs }: Mutant, exercisedIn: string): string {
  if (reportedAs !== undefined && failure.category === reportedAs)
    return `its category "${reportedAs}" came outside the ${exercisedIn}`;
  if (failure.category !== 'Broken rule' || failure.rule !== rule)
    return `its test failed as: ${firstLine(failure.message)}`;
  if (reportedAs !== undefined) return `its rule was named where the failure must be "${reportedAs}"`;
  const step = phaseOf(failure);
  return `its rule broke ${step ? `in the ${step}` : 'outside any step'}, not in the ${exercisedIn}`;
}

/** Why nothing could be judged: the control run failed, no spec file ran, or what failed judges nothing. */
function notJudged(
  { files, output }: Outcome,
  ownFiles: FileResult[],
  ownFailures: Failure[],
  controlFailed: string[],
): string[] {
  const reasons = [
    ...(controlFailed.length > 0 ? [`without the mutant, same settings, ${controlFailed.join('; ')}`] : []),
    ...(files.length === 0
      ? [`no spec file ran${output ? ` (${firstLine(output.trim().slice(-SHOWN_CHARS))})` : ''}`]
      : []),
    ...ownFiles.flatMap((file) => (file.message ? [`its spec file failed (${firstLine(file.message)})`] : [])),
    ...ownFailures.flatMap((failure) => noVerdict(failure) ?? []),
  ];
  return [...new Set(reasons)];
}

/**
 * The verdict on one run. A failure may name only its own test's rule; in fast mode (`strict`) only the mutant's too,
 * as in full mode a mutant may truly break several (an update that stores nothing breaks every transition a PUT makes).
 * The setup rule is judged where the run checks it: in global setup, before any spec file.
 */
export function judge(
  run: Planned,
  outcome: Outcome,
  checks: ReturnType<typeof specChecks>,
  strict: boolean,
  controlFailed: string[],
): Verdict {
  const mutant = MUTANTS[run.mutant];
  const exercisedIn = stepIn(mutant, run.layout);
  const { files, output } = outcome;
  const failed = failedFiles(files);
  const allFailures = failed.flatMap((file) => [
    ...(file.failures ?? []),
    ...file.assertionResults.flatMap((test) => test.failures ?? []),
  ]);
  const namedRules = [...new Set([...setupRulesIn(output), ...rulesBroken(allFailures)])];
  const failedTests = failed.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({
        title: test.title,
        own: checks.find((check) => check.title === test.title && file.name.endsWith(check.file))?.rule,
        failures: test.failures ?? [],
      })),
  );
  const misattributed = failedTests.flatMap(({ title, own, failures }) => {
    const wrong = rulesBroken(failures).filter((named) => named !== own || (strict && named !== mutant.rule));
    return wrong.length === 0 ? [] : [`${title} (rule ${own ?? 'unknown'}) named ${wrong.join(', ')}`];
  });
  const ownFiles = failed.filter((file) =>
    checks.some((check) => check.rule === mutant.rule && file.name.endsWith(check.file)),
  );
  const ownFailures = failedTests.filter(({ own }) => own === mutant.rule).flatMap(({ failures }) => failures);
  const shown =
    mutant.rule === SETUP_RULE && files.length === 0
      ? setupRulesIn(output).includes(SETUP_RULE)
      : ownFailures.some((failure) => kills(failure, mutant, exercisedIn)) &&
        (mutant.reportedAs === undefined || namedRules.length === 0);
  const unjudged = notJudged(outcome, ownFiles, ownFailures, controlFailed);
  const verdict = {
    mutant: run.mutant,
    layout: run.layout,
    rule: mutant.rule,
    failedSpecs: failed.map((file) => relative(process.cwd(), file.name)),
    namedRules,
    misattributed,
    controlFailed,
  };
  if (shown && misattributed.length === 0 && controlFailed.length === 0)
    return { ...verdict, judgement: 'killed', reasons: [] };
  if (unjudged.length > 0) return { ...verdict, judgement: 'not judged', reasons: unjudged };
  const instead = ownFailures
    .filter((failure) => !kills(failure, mutant, exercisedIn))
    .map((failure) => insteadOf(failure, mutant, exercisedIn));
  const reasons = instead.length > 0 || shown ? [...new Set(instead)] : ['no test of its rule failed'];
  return { ...verdict, judgement: 'survived', reasons };
}

/** A control run's failed spec files, each with the first line of its first failure. */
export function controlFailures({ files, output }: Outcome): string[] {
  if (files.length === 0) {
    return [output ? `global setup (${firstLine(output.slice(-SHOWN_CHARS))})` : 'no spec file ran'];
  }
  return failedFiles(files).map((file) => {
    const first = [file.message, ...failureMessages(file)].find(Boolean) ?? '';
    return `${relative(process.cwd(), file.name)} (${firstLine(first)})`;
  });
}

const LABELS: Record<Judgement, string> = { killed: 'killed    ', survived: 'SURVIVED  ', 'not judged': 'NOT JUDGED' };

/** One line per mutant: verdict, what it breaks, failed specs, rules named, and why it is not killed. */
export function formatMatrix(verdicts: Verdict[]): string {
  return verdicts
    .map(({ mutant, layout, rule, judgement, reasons, failedSpecs, namedRules, misattributed }) => {
      const name = `${mutant}${layout === 'standard' ? '' : ` [${layout} layout]`} (breaks ${rule})`;
      const { reportedAs } = MUTANTS[mutant];
      const why = reasons.length > 0 ? ` — ${reasons.join('; ')}` : '';
      if (judgement === 'not judged') return `${LABELS[judgement]} ${name}${why}`;
      const setup = namedRules.length ? 'the run setup (before any spec)' : 'no spec failed';
      const step = rule === SETUP_RULE ? 'the run setup' : `the ${stepIn(MUTANTS[mutant], layout)}`;
      const must = reportedAs ? `must be reported as ${reportedAs}` : `must break in ${step}`;
      const named = `${namedRules.join(', ') || 'no rule named'} (${must})`;
      const wrong = misattributed.length > 0 ? ` — MISATTRIBUTED: ${misattributed.join('; ')}` : '';
      return `${LABELS[judgement]} ${name} → ${failedSpecs.join(', ') || setup} → ${named}${wrong}${why}`;
    })
    .join('\n');
}
