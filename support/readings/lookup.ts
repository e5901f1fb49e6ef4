// Owns finding documented values anywhere in an answer whose layout is not documented (a key or
// a scalar value at any depth), so no spec depends on a guessed layout.

export type JsonRecord = Record<string, unknown>;
export type Scalar = string | number | boolean;

/** All values under `key` (case-insensitive) at any depth, outermost first. */
export function findValues(body: unknown, key: string): unknown[] {
  const wanted = key.toLowerCase();
  const found: unknown[] = [];
  walk(body, (record) => {
    for (const [name, value] of Object.entries(record)) if (name.toLowerCase() === wanted) found.push(value);
  });
  return found;
}

/** True when the scalar occurs anywhere in the body (strings compared exactly, never as substrings). */
export function containsValue(body: unknown, value: Scalar): boolean {
  if (body === value) return true;
  if (Array.isArray(body)) return body.some((item) => containsValue(item, value));
  if (isRecord(body)) return Object.values(body).some((item) => containsValue(item, value));
  return false;
}

function walk(body: unknown, visit: (record: JsonRecord) => void): void {
  if (Array.isArray(body)) {
    for (const item of body) walk(item, visit);
  } else if (isRecord(body)) {
    visit(body);
    for (const value of Object.values(body)) walk(value, visit);
  }
}

/** Keys compared without case, `_` or `-`: `is_removed`, `isRemoved` and `IS-REMOVED` are one name. */
export function normalKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** A JSON object: neither an array nor null. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
