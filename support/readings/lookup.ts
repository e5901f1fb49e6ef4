// Owns finding documented values anywhere in an answer whose layout is not documented (a key or
// a scalar value at any depth), so no spec depends on a guessed layout.

export type JsonRecord = Record<string, unknown>;

/** All values under `key` (case-insensitive) at any depth, outermost first. */
export function findValues(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body.flatMap((item) => findValues(item, key));
  if (!isRecord(body)) return [];
  const own = Object.entries(body).filter(([name]) => name.toLowerCase() === key.toLowerCase());
  return [...own.map(([, value]) => value), ...Object.values(body).flatMap((value) => findValues(value, key))];
}

/** True when the scalar occurs anywhere in the body (strings compared exactly, never as substrings). */
export function containsValue(body: unknown, value: string | number | boolean): boolean {
  if (body === value) return true;
  if (Array.isArray(body)) return body.some((item) => containsValue(item, value));
  if (isRecord(body)) return Object.values(body).some((item) => containsValue(item, value));
  return false;
}

/** Keys compared without case, `_` or `-`: `is_removed`, `isRemoved` and `IS-REMOVED` are one name. */
export function normalKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
