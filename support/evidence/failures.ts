// Owns the verdict on a failure: which documented rule it breaks, or why it breaks none (a precondition, a permission,
// an operation's path, the suite's own crash), each a new error built from what the failure carries, never a rewrite.
import type { ApiResponse } from '../transport/http.js';
import { redactText } from '../transport/redact.js';
import { ruleById } from '../run/catalogue.js';
import { pathSettingOf } from '../run/config.js';

/** Where the documentation states rule `id` and its words, as a failure and the CI summary quote them. */
export function ruleWords(id: string): string {
  const rule = ruleById(id);
  return `${rule.source ? `${rule.source} ${rule.section}` : rule.section}: "${rule.quote}"`;
}

/** Every contract failure reads so: a reader (and the mutant matrix) sees which rule broke without a re-run. */
export const brokenRuleMessage = (ruleId: string, detail: string): string =>
  `Broken rule ${ruleId} (${ruleWords(ruleId)}): ${detail}`;

/** The rule and what broke, without the bracketed section and quote (no quote holds `): `); undefined for no rule. */
export function brokenRuleDetail(message: string): { rule: string; detail: string } | undefined {
  const rule = /^Broken rule ([a-z0-9.-]+) /.exec(message)?.[1];
  const quoted = /^[^(]*\(.*?\): /.exec(message);
  return rule === undefined ? undefined : { rule, detail: quoted ? message.slice(quoted[0].length) : message };
}

/** The rule ids named in a failure text (vitest output, JUnit XML), once each. */
export function rulesNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(/Broken rule ([a-z0-9.-]+)/g)].map((match) => match[1]!))];
}

export type Answer = { text?: string } & Partial<Pick<ApiResponse, 'exchanges' | 'url'>>;

/** What a refusal said, for a message: the answer's body as sent (redacted, cut short), whatever its layout. */
export function refusalQuote(response: Answer): string {
  const text = (response.text ?? '').trim();
  if (text === '') return 'no body';
  const quoted = redactText(text.replace(/\s+/g, ' '));
  return `it said: ${quoted.length > 300 ? `${quoted.slice(0, 300)}…` : quoted}`;
}

/** The operation (catalogue id), method and path of the request behind an answer. */
function requestOf(response: Answer): { operation?: string; line: string } {
  const exchange = response.exchanges?.at(-1);
  const path = response.url ? new URL(response.url).pathname : exchange?.url;
  return { operation: exchange?.operation, line: [exchange?.method, path].filter(Boolean).join(' ') };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A failure thrown in place of `cause` points where `cause` happened (the spec's line), not where it was judged. */
function pointAt(error: Error, cause: unknown): void {
  const frames = (cause instanceof Error ? (cause.stack ?? '') : '').split('\n').filter((line) => /^\s+at /.test(line));
  if (frames.length > 0) error.stack = [`${error.name}: ${error.message}`, ...frames].join('\n');
}

/**
 * A verb's check that is another rule's promise failed (a PUT answered without a gedi, a new person never
 * retrievable, a consumer never identified); that rule's own spec reports it. `decisive`: it is no verdict on any
 * other rule wherever it shows, not only in a Given step.
 */
export class OtherRuleFailure extends Error {
  override readonly name = 'OtherRuleFailure';
  constructor(
    readonly rule: string,
    cause: unknown,
    readonly decisive = false,
  ) {
    super(messageOf(cause), { cause });
    pointAt(this, cause);
  }
}

export type Phase = 'When' | 'Then';

/** A When or Then step failed: the step, for the verdict of `rule(id).test` (support/verbs/contract.ts). */
export class StepFailure extends Error {
  override readonly name = 'StepFailure';
  constructor(
    readonly phase: Phase,
    readonly title: string,
    cause: unknown,
  ) {
    super(`${phase} "${title}": ${messageOf(cause)}`, { cause });
    pointAt(this, cause);
  }
}

/** The first line of what failed, without the matcher's tail, for a sentence that goes on. */
function firstLine(error: unknown): string {
  const [line = ''] = messageOf(error).split('\n');
  return line.replace(/: expected .* \/\/ Object\.is equality$/, '').replace(/[.:]\s*$/, '');
}

/** The rule under test could not be reached: a Given step, or another rule's promise it depends on, failed first. */
export class PreconditionError extends Error {
  override readonly name = 'PreconditionError';
  /** `step` with its phase ("Given an available person"); `rule` the rule under test; `covering` the rule failed. */
  constructor(
    readonly step: string,
    cause: unknown,
    readonly rule?: string,
    readonly covering?: string,
  ) {
    const before = rule === undefined ? '' : ` before rule ${rule} could be checked`;
    const its =
      covering === undefined || covering === rule
        ? ''
        : ` That step is what rule ${covering} ("${ruleById(covering).quote}") promises; its own spec reports it.`;
    super(`Precondition not met: the step "${step}" failed${before}: ${firstLine(cause)}.${its}`, { cause });
    pointAt(this, cause);
  }
}

/**
 * The rule under test broke in a When or Then step (`step`; none in the run's setup). Named after the failure that
 * broke it (AssertionError, NotConsistentError), as the failure taxonomy (allurerc.mjs) reads a trace's first word.
 */
export class BrokenRuleError extends Error {
  constructor(rule: string, cause: unknown, step?: StepFailure) {
    super(brokenRuleMessage(rule, step?.message ?? messageOf(cause)), { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
    pointAt(this, cause);
  }
}

/** A failure of a category of its own, its name and first words kept, saying in which step of the test it came. */
class CategoryFailure extends Error {
  constructor(cause: Error, step: string) {
    super(`${cause.message} (in the step "${step}")`, { cause });
    this.name = cause.name;
    pointAt(this, cause);
  }
}

/** The suite's own code crashed: no verdict on any rule. */
class SuiteError extends Error {
  override readonly name = 'SuiteError';
  constructor(cause: Error) {
    super(`Suite error (no verdict): ${cause.name}: ${cause.message}`, { cause });
    pointAt(this, cause);
  }
}

/** Failures that say nothing about the rule under test: the target's, the settings' or the client's permissions. */
const NOT_A_CONTRACT_FAILURE = new Set([
  'TargetUnavailableError',
  'TargetThrottledError',
  'TestOutpacedError',
  'TestOutOfTimeError',
  'RunOutOfTimeError',
  'ConfigError',
  'ListIncompleteError',
  'NotPermittedError',
  'OperationNotFoundError',
  'LayoutChangedError',
]);
const CRASHES = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError']);

/** The failure behind the steps and verbs that passed it on, and the innermost other rule's promise on the way. */
function unwrap(error: unknown): { original: unknown; other?: OtherRuleFailure } {
  let original = error;
  let other: OtherRuleFailure | undefined;
  while (
    original instanceof StepFailure ||
    original instanceof PreconditionError ||
    original instanceof OtherRuleFailure
  ) {
    if (original instanceof OtherRuleFailure) other = original;
    original = original.cause;
  }
  return { original, other };
}

/**
 * The verdict of `rule(id).test` on a failure of its body: the rule broken in a When or Then step; a precondition
 * not met in a Given step, or where another rule's promise failed decisively; the failure itself when it is a category
 * of its own (the target, a setting, a permission); a suite error for a crash. Only new errors: none is rewritten.
 */
export function attributeToRule(error: unknown, rule: string): unknown {
  const { original, other } = unwrap(error);
  if (!(original instanceof Error)) return error;
  const step =
    error instanceof StepFailure ? `${error.phase} ${error.title}` : (error as Partial<PreconditionError>).step;
  const inStep = (category: Error) => (step === undefined ? category : new CategoryFailure(category, step));
  if (NOT_A_CONTRACT_FAILURE.has(original.name)) return inStep(original);
  // A wait refused with 403 (support/readings/eventually.ts WaitRejectedError) is a permission, not a rule.
  const refused = (original as { response?: ApiResponse }).response;
  if (original.name === 'WaitRejectedError' && refused?.status === 403)
    return inStep(notPermitted(refused, `waiting for ${(original as { what?: string }).what ?? 'a state'}`));
  if (CRASHES.has(original.name)) return new SuiteError(original);
  if (error instanceof PreconditionError) return new PreconditionError(error.step, original, rule, other?.rule);
  if (!(error instanceof StepFailure)) return error;
  if (other && other.rule !== rule && other.decisive)
    return new PreconditionError(`${error.phase} ${error.title}`, original, rule, other.rule);
  return new BrokenRuleError(rule, original, error);
}

const SANDBOX_CLIENT =
  'sandbox person management needs sandbox credentials of the registered organization: check CONTRACT_CLIENT_ID ' +
  'and that CONTRACT_BASE_URL is the sandbox';
const MARKET = "the client's permission for the market";
const CHECK_MARKET = "check CONTRACT_MARKET and the client's permissions";
const CONSUMERS = `consumers need ${MARKET}: ${CHECK_MARKET}`;
const SCREENING_SCOPE =
  "screening needs the vendor's screening scope, separate from bci: set CONTRACT_SCREENING_SCOPE, and check " +
  'CONTRACT_SCREENING_PROVIDER';

/** What an operation (catalogue id) needs that a 403 says the client lacks, and the setting to check. */
export const PERMISSIONS: Partial<Record<string, string>> = {
  op1: SANDBOX_CLIENT,
  op2: SANDBOX_CLIENT,
  op3: `reading persons needs ${MARKET} ("onboarding"): ${CHECK_MARKET}`,
  op4: `finding persons needs ${MARKET} ("onboarding"): ${CHECK_MARKET}`,
  op5: CONSUMERS,
  op6: CONSUMERS,
  op7: `subscriptions need ${MARKET}: ${CHECK_MARKET}`,
  op8: SCREENING_SCOPE,
  op9: SCREENING_SCOPE,
  token: 'the token service refused this client: check CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET',
};

/** The target knows the client but does not let it do this (403, or 401 to a token it issued): never the rule. */
export class NotPermittedError extends Error {
  override readonly name = 'NotPermittedError';
}

export class OperationNotFoundError extends Error {
  override readonly name = 'OperationNotFoundError';
}

/** `after`: what the refusal means for the check that met it, said last. */
export function notPermitted(
  response: Answer & Pick<ApiResponse, 'status'>,
  what: string,
  after?: string,
): NotPermittedError {
  const { operation, line } = requestOf(response);
  const needs = (operation && PERMISSIONS[operation]) ?? "check the client's permissions for this operation and market";
  // A 401 (after a renewal) is a token the operation does not take; any other refusal a permission.
  const refused =
    response.status === 401 ? 'its token not accepted for this operation' : 'authenticated but not authorized';
  return new NotPermittedError(
    `Not permitted: ${what}${line ? ` (${operation ?? 'request'}: ${line})` : ''} answered ${response.status}, ` +
      `${refused} (${refusalQuote(response)}); ${needs}.${after ? ` ${after}` : ''}`,
  );
}

/** `operation` answered 404 at its configured path although `evidence` shows what it was asked for exists. */
export function operationNotFound(operation: string, response: Answer, evidence: string): OperationNotFoundError {
  const setting = pathSettingOf(operation);
  const { line } = requestOf(response);
  return new OperationNotFoundError(
    `Operation not found: ${operation}${line ? ` (${line})` : ''} answered 404 (${refusalQuote(response)}) while ` +
      `${evidence}: the target serves it at another path, or refuses this client access to it. ` +
      (setting
        ? `Check ${setting.variable} (the documented path is ${setting.default}; README "Operation paths" lists ` +
          "the vendor's alternatives)."
        : 'Check the path settings (README "Operation paths").'),
  );
}
