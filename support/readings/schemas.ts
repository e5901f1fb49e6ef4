// Owns JSON Schema validation of request and response bodies against schemas/*.schema.json.
/**
 * JSON Schema validation of request and response bodies against schemas/*.schema.json.
 *
 * Every schema is compiled once, when this module is first imported, so a broken schema fails
 * the run at once instead of in the middle of some spec. Violations are reported as short lines
 * (where, what, the offending value) because they end up in assertion messages and reports.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SCHEMA_DIRECTORY = fileURLToPath(new URL('../../schemas/', import.meta.url));
const SCHEMA_SUFFIX = '.schema.json';
/** Enough to see what is wrong without burying the assertion that failed. */
const MAX_LINES = 10;
const MAX_VALUE_CHARS = 80;

function compileAll(): Map<string, ValidateFunction> {
  // allErrors: one run shows every problem of a body; verbose: errors carry the offending value
  // and their schema, which the messages below quote.
  const ajv = new Ajv2020({ allErrors: true, verbose: true });
  addFormats(ajv);
  const files = readdirSync(SCHEMA_DIRECTORY).filter((name) => name.endsWith(SCHEMA_SUFFIX));
  for (const file of files) {
    const schema = JSON.parse(readFileSync(SCHEMA_DIRECTORY + file, 'utf8')) as AnySchemaObject;
    const stem = file.slice(0, -SCHEMA_SUFFIX.length);
    if (schema.$id !== stem) throw new Error(`schemas/${file} must have "$id": "${stem}" (the file stem), not ${JSON.stringify(schema.$id)}`);
    ajv.addSchema(schema);
  }
  return new Map(
    files.map((file) => {
      const id = file.slice(0, -SCHEMA_SUFFIX.length);
      return [id, ajv.getSchema(id) as ValidateFunction];
    }),
  );
}

const validators = compileAll();

function preview(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

const titleOf = (schema: unknown): string | undefined =>
  schema && typeof schema === 'object' && typeof (schema as AnySchemaObject).title === 'string' ? (schema as AnySchemaObject).title : undefined;

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
      const branches = Array.isArray(error.schema) ? error.schema.map(titleOf).filter((title) => title !== undefined) : [];
      return branches.length > 0 ? `${where} matches none of: ${branches.join(' | ')}` : `${where} ${error.message}`;
    }
    case 'not':
      return `${where} is not ${titleOf(error.parentSchema) ?? 'valid here'}`;
    default:
      return `${where} ${error.message}: got ${preview(error.data)}`;
  }
}

function validatorFor(id: string): ValidateFunction {
  const validate = validators.get(id);
  if (!validate) throw new Error(`no schema "${id}" in schemas/ (known: ${schemaIds().join(', ')})`);
  return validate;
}

/** The ids (file stems) of all schemas in schemas/. */
export function schemaIds(): string[] {
  return [...validators.keys()].sort();
}

/** Every violation of schema `id` by `value`, one readable line each; empty when it conforms. */
export function schemaErrors(id: string, value: unknown): string[] {
  const validate = validatorFor(id);
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
