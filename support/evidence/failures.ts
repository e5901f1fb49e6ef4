// Owns failure attribution: which documented rule a failure breaks, and which failures break none.
import { ruleById } from '../run/catalogue.js';
import { notPermitted, preconditionFailure } from './refusals.js';
import type { ApiResponse } from '../transport/http.js';

/** Every contract failure reads so: a reader (and the mutant matrix) sees which rule broke without a re-run. */
export function brokenRuleMessage(ruleId: string, detail: string): string {
  const rule = ruleById(ruleId);
  const where = rule.source ? `${rule.source} ${rule.section}` : rule.section;
  return `Broken rule ${rule.id} (${where}: "${rule.quote}"): ${detail}`;
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
