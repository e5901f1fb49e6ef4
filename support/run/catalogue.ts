// Owns the documentation catalogue (docs/catalogue.json): every documented operation and rule, by id.
import { readFileSync } from 'node:fs';

/** The documentation catalogue (docs/catalogue.json): every documented operation and rule, by id. */
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
}

export interface Catalogue {
  documentation: string;
  operations: CatalogueOperation[];
  rules: CatalogueRule[];
}

export const catalogue: Catalogue = JSON.parse(readFileSync(new URL('../../docs/catalogue.json', import.meta.url), 'utf8')) as Catalogue;

export function ruleById(id: string): CatalogueRule {
  const rule = catalogue.rules.find((candidate) => candidate.id === id);
  if (!rule) throw new Error(`Unknown rule id "${id}": add it to docs/catalogue.json or use one of ${catalogue.rules.map((r) => r.id).join(', ')}.`);
  return rule;
}

export function operationById(id: string): CatalogueOperation {
  const operation = catalogue.operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`Unknown operation id "${id}" in docs/catalogue.json.`);
  return operation;
}
