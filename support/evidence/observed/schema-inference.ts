// Owns inferring a JSON Schema from sample bodies: the types seen, `required` = the keys present in
// every sample, small sets of short strings as `enum` (a consumer's states), arrays by their items.
export type JsonSchema = Record<string, unknown>;

const MAX_ENUM = 6;
const MAX_ENUM_LENGTH = 24;

type Kind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'object') return 'object';
  return 'string';
}

/** The schema every sample satisfies; undefined without samples. */
export function inferSchema(samples: unknown[]): JsonSchema | undefined {
  if (samples.length === 0) return undefined;
  const kinds = [...new Set(samples.map(kindOf))];
  const integerAndNumber = kinds.includes('integer') && kinds.includes('number');
  const types = integerAndNumber ? kinds.filter((kind) => kind !== 'integer') : kinds;
  const schema: JsonSchema = { type: types.length === 1 ? types[0] : types };
  const objects = samples.filter((sample): sample is Record<string, unknown> => kindOf(sample) === 'object');
  if (objects.length > 0) {
    const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))];
    schema.properties = Object.fromEntries(
      keys.map((key) => [
        key,
        inferSchema(objects.filter((object) => key in object).map((object) => object[key])) ?? {},
      ]),
    );
    const required = keys.filter((key) => objects.every((object) => key in object));
    if (required.length > 0) schema.required = required;
  }
  const arrays = samples.filter(Array.isArray);
  const items = arrays.flat();
  if (arrays.length > 0 && items.length > 0) schema.items = inferSchema(items);
  const strings = samples.filter((sample): sample is string => typeof sample === 'string');
  const distinct = [...new Set(strings)];
  if (
    types.length === 1 &&
    strings.length > distinct.length &&
    distinct.length <= MAX_ENUM &&
    distinct.every((value) => value.length <= MAX_ENUM_LENGTH && /^[A-Za-z_ -]+$/.test(value))
  ) {
    schema.enum = distinct.sort();
  }
  return schema;
}

/** JSON paths (`$.content[*].state`) at which a key is found in any sample, with list indexes generalised. */
export function pathsOf(samples: unknown[], wanted: (key: string, value: unknown) => boolean): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item) => walk(item, `${path}[*]`));
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (wanted(key, inner)) found.add(`${path}.${key}`);
        walk(inner, `${path}.${key}`);
      }
    }
  };
  for (const sample of samples) walk(sample, '$');
  return [...found].sort();
}

/**
 * One schema both inferred schemas' samples satisfy: types and properties united, `required` only where both require.
 */
export function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const typesOf = (schema: JsonSchema): string[] =>
    schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[]);
  let types = [...new Set([...typesOf(a), ...typesOf(b)])];
  if (types.includes('number')) types = types.filter((type) => type !== 'integer');
  const merged: JsonSchema = types.length ? { type: types.length === 1 ? types[0] : types } : {};
  const propsA = a.properties as Record<string, JsonSchema> | undefined;
  const propsB = b.properties as Record<string, JsonSchema> | undefined;
  if (propsA || propsB) {
    const keys = [...new Set([...Object.keys(propsA ?? {}), ...Object.keys(propsB ?? {})])];
    merged.properties = Object.fromEntries(
      keys.map((key) => [
        key,
        propsA?.[key] && propsB?.[key] ? mergeSchemas(propsA[key], propsB[key]) : (propsA?.[key] ?? propsB?.[key])!,
      ]),
    );
    // A side that saw no object requires nothing of one.
    const requiredOf = (schema: JsonSchema, props: unknown): string[] | undefined =>
      props ? ((schema.required as string[] | undefined) ?? []) : undefined;
    const [requiredA, requiredB] = [requiredOf(a, propsA), requiredOf(b, propsB)];
    const required =
      requiredA && requiredB ? requiredA.filter((key) => requiredB.includes(key)) : (requiredA ?? requiredB ?? []);
    if (required.length) merged.required = required;
  }
  if (a.items || b.items)
    merged.items =
      a.items && b.items ? mergeSchemas(a.items as JsonSchema, b.items as JsonSchema) : (a.items ?? b.items);
  if (a.enum && b.enum) {
    const values = [...new Set([...(a.enum as string[]), ...(b.enum as string[])])].sort();
    if (values.length <= MAX_ENUM) merged.enum = values;
  }
  return merged;
}
