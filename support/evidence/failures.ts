// Owns failure attribution: which documented rule a failure breaks, and which failures break none.
import { ruleById } from '../run/catalogue.js';

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

/** Failures that say nothing about the contract: the target could not be asked, or its list could not be read to its end. */
const NOT_A_CONTRACT_FAILURE = new Set(['TargetUnavailableError', 'ConfigError', 'ListIncompleteError']);

/**
 * Names the rule on an error, unless the failure is not about the contract (an unreachable target
 * breaks no documented rule). The one caller that names rules is the spec's own `rule(id).test`:
 * verbs act and return what they saw, so a failure inside a spec is never blamed on another rule.
 */
export function attributeToRule(error: unknown, ruleId: string): unknown {
  if (!(error instanceof Error) || NOT_A_CONTRACT_FAILURE.has(error.name)) return error;
  error.message = brokenRuleMessage(ruleId, error.message);
  return error;
}

/** Extracts the rule ids named in a failure text (vitest output, JUnit XML). */
export function rulesNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(new RegExp(`${BROKEN_RULE_PREFIX} ([a-z0-9.-]+)`, 'g'))].map((match) => match[1]!))];
}
