// Owns walking JSON of a shape nobody documented: values by key at any depth, the fields of an object with their
// paths, the entries of its lists, and the yes and no of a field. It knows nothing of persons or evidence.

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/** A key as a segment of a JSON Pointer (RFC 6901): `~` and `/` escaped. */
export const pointerSegment = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Keys compared without case, `_` or `-`: `is_removed`, `isRemoved` and `IS-REMOVED` are one name. */
export function normalKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

export interface Field {
  path: string;
  key: string;
  value: unknown;
}

export const fieldText = ({ path, value }: { path: string; value: unknown }): string =>
  `${path} = ${JSON.stringify(value)}`;

/** The object's fields at any depth of its objects (`data`, `status.removed`), never in its lists. */
export function ownFields(record: unknown, path = '$'): Field[] {
  if (!isRecord(record)) return [];
  return Object.entries(record).flatMap(([key, value]) => [
    { path: `${path}.${key}`, key, value },
    ...ownFields(value, `${path}.${key}`),
  ]);
}

/** `$.data.status.removed` → data, status. */
export const parentsOf = (path: string): string[] => path.split('.').slice(1, -1).map(normalKey);

/** Every scalar of a value at any depth, in its objects and lists, with its path. */
export function scalarsIn(value: unknown, path = '$'): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((element, index) => scalarsIn(element, `${path}[${index}]`));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, inner]) => scalarsIn(inner, `${path}.${key}`));
  return [{ path, value }];
}

/** A string, or the strings of a list: the words a state or category field says. */
export const words = (value: unknown): string[] => [value].flat().filter((item) => typeof item === 'string');

// A yes or a no as layouts write one: a boolean, or its word in the cases they use.
const AFFIRMATIVE = new Set([true, 'true', 'TRUE', 'True', 'yes', 'YES', 'Y']);
export const affirms = (value: unknown): boolean => AFFIRMATIVE.has(value as string | boolean);
const DENIAL = new Set([false, 'false', 'FALSE', 'False', 'no', 'NO', 'N']);
export const denies = (value: unknown): boolean => DENIAL.has(value as string | boolean);

export interface Located {
  item: JsonRecord;
  path: string;
}

/** Every object that is an element of a list, at any depth, with its path; `inList` picks lists by their key. */
export function listItems(body: unknown, inList = (_key: string) => true, path = '$', key = ''): Located[] {
  if (Array.isArray(body)) {
    return body.flatMap((element, index) => [
      ...(isRecord(element) && inList(key) ? [{ item: element, path: `${path}[${index}]` }] : []),
      ...listItems(element, inList, `${path}[${index}]`),
    ]);
  }
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([name, value]) => listItems(value, inList, `${path}.${name}`, name));
}
