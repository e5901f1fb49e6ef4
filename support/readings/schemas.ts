// Owns validating bodies against schemas/*.schema.json with the generated validators. Violations are short lines
// (where, what, the offending value) because they end up in assertion messages and reports.
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { validators as generated } from './validators.generated.js';

/** Enough to see what is wrong without burying the assertion that failed. */
const MAX_LINES = 10;
const MAX_VALUE_CHARS = 80;

const validators = new Map(Object.entries(generated as unknown as Record<string, ValidateFunction>));

function preview(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

// ajv checks each schema against the meta-schema, so a title is a string.
const titleOf = (schema: unknown): string | undefined => (schema as AnySchemaObject | undefined)?.title;

/** One readable line per error; ajv's own wording where it is clear, with the offending value. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where} lacks the required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${where} has the undocumented property "${String(params.additionalProperty)}"`;
    case 'enum':
      return `${where} must be one of ${preview(params.allowedValues)}: got ${preview(error.data)}`;
    case 'const':
      return `${where} must be ${preview(params.allowedValue)}: got ${preview(error.data)}`;
    case 'anyOf':
    case 'oneOf': {
      const branches = Array.isArray(error.schema)
        ? error.schema.map(titleOf).filter((title) => title !== undefined)
        : [];
      return branches.length > 0 ? `${where} matches none of: ${branches.join(' | ')}` : `${where} ${error.message}`;
    }
    case 'not': {
      // A `not` says in its description what it forbids ("Only one of firstName and firstNames may be set").
      const forbidden = (error.schema as AnySchemaObject | undefined)?.description;
      return forbidden
        ? `${where} breaks: ${forbidden}`
        : `${where} is not ${titleOf(error.parentSchema) ?? 'valid here'}`;
    }
    default:
      return `${where} ${error.message}: got ${preview(error.data)}`;
  }
}

/** Every violation of schema `id` by `value`, one readable line each; empty when it conforms. */
export function schemaErrors(id: string, value: unknown): string[] {
  const validate = validators.get(id);
  if (!validate) throw new Error(`no schema "${id}" in schemas/ (known: ${[...validators.keys()].sort().join(', ')})`);
  return validate(value) ? [] : (validate.errors ?? []).map(describeError);
}

export class SchemaViolation extends Error {
  override readonly name = 'SchemaViolation';

  constructor(
    readonly schemaId: string,
    readonly violations: readonly string[],
  ) {
    const shown = violations.slice(0, MAX_LINES).map((line) => `  - ${line}`);
    if (violations.length > MAX_LINES) shown.push(`  … and ${violations.length - MAX_LINES} more`);
    super(`value does not match schema "${schemaId}":\n${shown.join('\n')}`);
  }
}

/** Throws a SchemaViolation listing what is wrong unless `value` conforms to schema `id`. */
export function expectSchema(id: string, value: unknown): void {
  const violations = schemaErrors(id, value);
  if (violations.length > 0) throw new SchemaViolation(id, violations);
}
