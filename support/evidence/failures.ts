// Owns failure attribution: which documented rule a failure breaks, and which failures break none.
import { ruleById } from '../run/catalogue.js';
import { notPermitted, preconditionFailure } from './refusals.js';
import type { ApiResponse } from '../transport/http.js';

/**
 * The prefix every contract failure carries, so a reader (and the mutant matrix) sees which
 * documented rule broke without re-running anything.
 */
export const BROKEN_RULE_PREFIX = 'Broken rule';

export function brokenRuleMessage(ruleId: string, detail: string): string {
  const rule = ruleById(ruleId);
  const where = rule.source ? `${rule.source} ${rule.section}` : rule.section;
  return `${BROKEN_RULE_PREFIX} ${rule.id} (${where}: "${rule.quote}"): ${detail}`;
}

/**
 * Failures that say nothing about the rule under test: the target could not be asked, it throttled
 * the client to its deadline (a request's, or the test's: support/evidence/test-time.ts), its list
 * could not be read to its end, it refused permission or served the operation elsewhere, or a step
 * before the rule failed (support/evidence/refusals.ts).
 */
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

/**
 * Names the rule on an error, unless the failure is not about the rule: an unreachable target, a
 * 403, or a precondition not met. The one caller that names rules is the spec's own
 * `rule(id).test`: verbs act and return what they saw, so a failure inside a spec is never blamed
 * on another rule; where a verb's check is another rule's promise, the verb says so (`coveredBy`).
 */
export function attributeToRule(error: unknown, ruleId: string): unknown {
  if (!(error instanceof Error) || NOT_A_CONTRACT_FAILURE.has(error.name)) return error;
  // A wait refused with 403 (support/readings/eventually.ts WaitRejectedError) is a permission, not a rule.
  const refused = (error as { response?: ApiResponse }).response;
  if (error.name === 'WaitRejectedError' && refused?.status === 403)
    return notPermitted(refused, `waiting for ${(error as { what?: string }).what ?? 'a state'}`);
  const precondition = preconditionFailure(error, ruleId);
  if (precondition) return precondition;
  error.message = brokenRuleMessage(ruleId, error.message);
  return error;
}

/**
 * A failure of the rule under test, as `attributeToRule` named it: the rule and what broke, without
 * the section and quote (`brokenRuleMessage` puts them in brackets; no quote holds `): `);
 * undefined for a failure of no rule.
 */
export function brokenRuleDetail(message: string): { rule: string; detail: string } | undefined {
  const rule = new RegExp(`^${BROKEN_RULE_PREFIX} ([a-z0-9.-]+) `).exec(message)?.[1];
  const quoted = /^[^(]*\(.*?\): /.exec(message);
  return rule === undefined ? undefined : { rule, detail: quoted ? message.slice(quoted[0].length) : message };
}

/** Extracts the rule ids named in a failure text (vitest output, JUnit XML). */
export function rulesNamedIn(text: string): string[] {
  return [
    ...new Set([...text.matchAll(new RegExp(`${BROKEN_RULE_PREFIX} ([a-z0-9.-]+)`, 'g'))].map((match) => match[1]!)),
  ];
}
