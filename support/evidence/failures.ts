// Owns failure attribution: which documented rule a failure breaks, and the failures that break none (a precondition,
// a permission, an operation's path), which never say "Broken rule" and send a reader to the wrong documentation.
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

// Which rule's own spec covers a failed step is said by the verb that failed, as only it knows the answer's layout.
const coverage = new WeakMap<object, { rule: string; decisive: boolean }>();
const givenSteps = new WeakMap<object, string>();

/** Names the rule whose own spec checks what `error` shows (innermost verb wins); `decisive`: even outside a Given. */
export function coveredBy<E>(error: E, rule: string, decisive = false): E {
  if (error instanceof Error && !coverage.has(error)) coverage.set(error, { rule, decisive });
  return error;
}

/** Marks `error` as thrown inside the Given step `name` (support/evidence/report.ts). */
export function failedInGiven(error: unknown, name: string): void {
  if (error instanceof Error && !givenSteps.has(error)) givenSteps.set(error, name);
}

/** The rule under test could not be reached: a Given step, or another rule's promise it depends on, failed first. */
export class PreconditionError extends Error {
  override readonly name = 'PreconditionError';
}

/** Failures that say nothing about the rule under test: the target's, the settings', or a step's before the rule. */
const NOT_A_CONTRACT_FAILURE = new Set([
  'TargetUnavailableError',
  'TargetThrottledError',
  'TestOutpacedError',
  'ConfigError',
  'ListIncompleteError',
  'NotPermittedError',
  'OperationNotFoundError',
  'PreconditionError',
]);

/** Names the rule on an error unless it is not about the rule; only the spec's own `rule(id).test` calls it. */
export function attributeToRule(error: unknown, rule: string): unknown {
  if (!(error instanceof Error) || NOT_A_CONTRACT_FAILURE.has(error.name)) return error;
  // A wait refused with 403 (support/readings/eventually.ts WaitRejectedError) is a permission, not a rule.
  const refused = (error as { response?: ApiResponse }).response;
  if (error.name === 'WaitRejectedError' && refused?.status === 403)
    return notPermitted(refused, `waiting for ${(error as { what?: string }).what ?? 'a state'}`);
  // The rule broke unless `error` happened in a Given step or another rule covers it decisively: a precondition.
  const step = givenSteps.get(error);
  const covered = coverage.get(error);
  const covering = covered?.rule === rule ? undefined : covered?.rule;
  if (step === undefined && !(covered?.decisive && covering)) {
    error.message = brokenRuleMessage(rule, error.message);
    return error;
  }
  const [firstLine = ''] = error.message.split('\n');
  const failed = firstLine.replace(/: expected .* \/\/ Object\.is equality$/, '').replace(/[.:]\s*$/, '');
  const where = step === undefined ? 'a step it depends on' : `the step "Given ${step}"`;
  const its =
    covering === undefined
      ? ''
      : ` That step is what rule ${covering} ("${ruleById(covering).quote}") promises; its own spec reports it.`;
  return new PreconditionError(
    `Precondition not met: ${where} failed before rule ${rule} could be checked: ${failed}.${its}`,
    { cause: error },
  );
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

export function notPermitted(response: Answer & Pick<ApiResponse, 'status'>, what: string): NotPermittedError {
  const { operation, line } = requestOf(response);
  const needs = (operation && PERMISSIONS[operation]) ?? "check the client's permissions for this operation and market";
  // A 401 (after a renewal) is a token the operation does not take; any other refusal a permission.
  const refused =
    response.status === 401 ? 'its token not accepted for this operation' : 'authenticated but not authorized';
  return new NotPermittedError(
    `Not permitted: ${what}${line ? ` (${operation ?? 'request'}: ${line})` : ''} answered ${response.status}, ` +
      `${refused} (${refusalQuote(response)}); ${needs}.`,
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
