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

/**
 * The closed list of what a verdict can be, as allurerc.mjs names its categories: a rule broken, or why the failure
 * judges none. 'Layout changed' is for an answer whose layout differs from the one learned and reviewed.
 */
export type Category =
  | 'Broken rule'
  | 'Precondition not met'
  | 'Suite error'
  | 'Target unavailable'
  | 'Target throttled'
  | 'Out of time'
  | 'Configuration error'
  | 'List could not be read completely'
  | 'Not permitted'
  | 'Operation not found'
  | 'Layout changed';

/** A verdict as data, own enumerable fields of the error, so vitest's results and the reporter keep them. */
export interface Verdict {
  category: Category;
  /** The rule under test (catalogue id): broken, for 'Broken rule'; left unjudged otherwise; undefined for none. */
  rule?: string;
  /** The step with its phase ("Then the person is eventually shown as removed"); undefined outside any step. */
  step?: string;
  /** The first line of what was seen. */
  evidence: string;
}

/** The categories of failures that judge no rule, by the error class that carries them. */
const CATEGORY_OF_CLASS: Partial<Record<string, Category>> = {
  TargetUnavailableError: 'Target unavailable',
  TargetThrottledError: 'Target throttled',
  TestOutpacedError: 'Target throttled',
  TestOutOfTimeError: 'Out of time',
  RunOutOfTimeError: 'Out of time',
  ConfigError: 'Configuration error',
  NetworkSetupError: 'Configuration error',
  ListIncompleteError: 'List could not be read completely',
  NotPermittedError: 'Not permitted',
  OperationNotFoundError: 'Operation not found',
  LayoutChangedError: 'Layout changed',
};

/**
 * The one place a failure's category is decided: a verdict of this module carries its own; any other error by its
 * class (a token service that cannot be asked is the target unavailable, a rejected secret a setting).
 */
export function categoryOf(error: unknown): Category | undefined {
  if (!(error instanceof Error)) return undefined;
  const own = (error as Partial<Verdict>).category;
  if (own !== undefined) return own;
  if (error.name === 'TokenError') {
    // A token answer the documentation does not allow ('malformed', 'server') is the token rule's, no setting's.
    const { reason } = error as { reason?: string };
    if (reason === 'unreachable' || reason === 'unavailable') return 'Target unavailable';
    return reason === 'rejected' ? 'Configuration error' : undefined;
  }
  return CATEGORY_OF_CLASS[error.name];
}

/** The verdict fields of a failure, when it carries them (a thrown error, or one vitest serialized). */
export function verdictOf(error: unknown): Verdict | undefined {
  const fields = (error ?? {}) as Partial<Verdict>;
  return typeof fields.category === 'string'
    ? { category: fields.category, rule: fields.rule, step: fields.step, evidence: fields.evidence ?? '' }
    : undefined;
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
export class PreconditionError extends Error implements Verdict {
  override readonly name = 'PreconditionError';
  readonly category = 'Precondition not met';
  readonly evidence: string;
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
    this.evidence = firstLine(cause);
    pointAt(this, cause);
  }
}

/**
 * The rule under test broke in a When or Then step (`step`; none in the run's setup). Named after the failure that
 * broke it (AssertionError, NotConsistentError), as the failure taxonomy (allurerc.mjs) reads a trace's first word.
 */
export class BrokenRuleError extends Error implements Verdict {
  readonly category = 'Broken rule';
  readonly step?: string;
  readonly evidence: string;
  constructor(
    readonly rule: string,
    cause: unknown,
    step?: StepFailure,
  ) {
    super(brokenRuleMessage(rule, step?.message ?? messageOf(cause)), { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
    this.step = step && `${step.phase} ${step.title}`;
    this.evidence = firstLine(cause);
    pointAt(this, cause);
  }
}

/** A failure of a category of its own, its name and first words kept, saying in which step of the test it came. */
class CategoryFailure extends Error implements Verdict {
  readonly evidence: string;
  constructor(
    cause: Error,
    readonly category: Category,
    readonly rule: string,
    readonly step?: string,
  ) {
    super(step === undefined ? cause.message : `${cause.message} (in the step "${step}")`, { cause });
    this.name = cause.name;
    this.evidence = firstLine(cause);
    pointAt(this, cause);
  }
}

/** The suite's own code crashed: no verdict on any rule. */
class SuiteError extends Error implements Verdict {
  override readonly name = 'SuiteError';
  readonly category = 'Suite error';
  readonly evidence: string;
  constructor(
    cause: Error,
    readonly rule: string,
    readonly step?: string,
  ) {
    super(`Suite error (no verdict): ${cause.name}: ${cause.message}`, { cause });
    this.evidence = firstLine(cause);
    pointAt(this, cause);
  }
}

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
  const inStep = (failure: Error) => new CategoryFailure(failure, categoryOf(failure)!, rule, step);
  // Failures that say nothing about the rule under test: the target's, the settings' or the client's permissions.
  if (categoryOf(original) !== undefined) return inStep(original);
  // A wait refused with 403 (support/readings/eventually.ts WaitRejectedError) is a permission, not a rule.
  const refused = (original as { response?: ApiResponse }).response;
  if (original.name === 'WaitRejectedError' && refused?.status === 403)
    return inStep(notPermitted(refused, `waiting for ${(original as { what?: string }).what ?? 'a state'}`));
  if (CRASHES.has(original.name)) return new SuiteError(original, rule, step);
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
