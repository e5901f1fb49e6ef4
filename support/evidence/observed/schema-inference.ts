// Owns inferring a JSON Schema from sample bodies: the types seen, `required` = the keys present in
// every sample, small sets of short strings as `enum` (a consumer's states), arrays by their items.
export type JsonSchema = Record<string, unknown>;

const MAX_ENUM = 6;
const MAX_ENUM_LENGTH = 24;

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'boolean' || typeof value === 'object' ? typeof value : 'string';
}

/** `type` of the kinds seen, an integer counting as a number where both were seen. */
function typed(kinds: unknown[]): JsonSchema {
  let types = [...new Set(kinds.flat().filter((kind) => typeof kind === 'string'))];
  if (types.includes('number')) types = types.filter((type) => type !== 'integer');
  return types.length ? { type: types.length === 1 ? types[0] : types } : {};
}

/** The schema every sample satisfies; undefined without samples. */
export function inferSchema(samples: unknown[]): JsonSchema | undefined {
  if (samples.length === 0) return undefined;
  const schema = typed(samples.map(kindOf));
  const objects = samples.filter((sample): sample is Record<string, unknown> => kindOf(sample) === 'object');
  if (objects.length > 0) {
    const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))];
    schema.properties = Object.fromEntries(
      keys.map((key) => [key, inferSchema(objects.filter((object) => key in object).map((object) => object[key]))]),
    );
    const required = keys.filter((key) => objects.every((object) => key in object));
    if (required.length > 0) schema.required = required;
  }
  const items = samples.filter(Array.isArray).flat();
  if (items.length > 0) schema.items = inferSchema(items);
  const strings = samples.filter((sample): sample is string => typeof sample === 'string');
  const distinct = [...new Set(strings)];
  if (
    typeof schema.type === 'string' &&
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

/** One schema the samples of both satisfy: types and properties united, `required` only where both require. */
export function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const merged = typed([a.type, b.type]);
  const [propsA, propsB] = [a.properties, b.properties] as (Record<string, JsonSchema> | undefined)[];
  if (propsA || propsB) {
    const properties: Record<string, JsonSchema> = { ...propsA, ...propsB };
    for (const [key, schema] of Object.entries(propsA ?? {}))
      if (propsB?.[key]) properties[key] = mergeSchemas(schema, propsB[key]);
    merged.properties = properties;
    // A side that saw no object requires nothing of one.
    const required = [a, b]
      .filter((side) => side.properties)
      .map((side) => (side.required ?? []) as string[])
      .reduce((both, other) => both.filter((key) => other.includes(key)));
    if (required.length) merged.required = required;
  }
  const items = a.items && b.items ? mergeSchemas(a.items as JsonSchema, b.items as JsonSchema) : (a.items ?? b.items);
  if (items) merged.items = items;
  if (a.enum && b.enum) {
    const values = [...new Set([...(a.enum as string[]), ...(b.enum as string[])])].sort();
    if (values.length <= MAX_ENUM) merged.enum = values;
  }
  return merged;
}
