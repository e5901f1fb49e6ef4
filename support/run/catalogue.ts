// Owns the documentation catalogue (docs/catalogue.json): every documented operation and rule, by id.
import { readFileSync } from 'node:fs';

export interface CatalogueOperation {
  id: string;
  epic: string;
  feature: string;
  method: string;
  path: string;
  section: string;
}

export interface CatalogueRule {
  id: string;
  kind: 'operation' | 'rule' | 'transition';
  operations: string[];
  section: string;
  severity: 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';
  quote: string;
  /** The rule binds the suite itself (no server can break it), so no simulator mutant exists for it. */
  clientSide?: boolean;
  /** Where the rule comes from when it is not the API documentation (HTTP's own semantics: "RFC 9110"). */
  source?: 'RFC 9110';
  /** The report epic when it is not the operation's interface. */
  epic?: string;
}

export const catalogue = JSON.parse(readFileSync(new URL('../../docs/catalogue.json', import.meta.url), 'utf8')) as {
  documentation: string;
  operations: CatalogueOperation[];
  rules: CatalogueRule[];
};

export function ruleById(id: string): CatalogueRule {
  const rule = catalogue.rules.find((candidate) => candidate.id === id);
  if (rule) return rule;
  const known = catalogue.rules.map((r) => r.id).join(', ');
  throw new Error(`Unknown rule id "${id}": add it to docs/catalogue.json or use one of ${known}.`);
}

const RFC_9110 = 'https://www.rfc-editor.org/rfc/rfc9110';

/** The name and address of the text a rule quotes: a section of the API documentation, or of RFC 9110. */
export function ruleSource(rule: CatalogueRule): { name: string; url: string } {
  if (rule.source === 'RFC 9110') {
    return { name: `RFC 9110, section ${rule.section}`, url: `${RFC_9110}#section-${rule.section.split(' ')[0]}` };
  }
  const anchor = rule.section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
  return { name: `API documentation, section "${rule.section}"`, url: `${catalogue.documentation}#${anchor}` };
}

export function operationById(id: string): CatalogueOperation {
  const operation = catalogue.operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`Unknown operation id "${id}" in docs/catalogue.json.`);
  return operation;
}
