// Owns the location syntax of layout files: a JSON Pointer (RFC 6901) whose segment `[inner/pointer=binding]` selects
// the list entry carrying the binding's value at that inner pointer (or a JSON string: `[listType="PEP"]`); the JSON
// types along it; and the predicates.
import { isRecord } from '../readings/json.js';
import type { Shape } from './layout-file.js';

/** The values a location or predicate names by word: `relative` (a legal id), `target.gedi`, `sent.<field>`. */
export type Bindings = Record<string, unknown>;

const unescape = (segment: string): string => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** `/a/[b/c=x]/d` → ["a", "[b/c=x]", "d"]: a selector's inner slashes are its own. */
export function segmentsOf(location: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of location.slice(1)) {
    if (char === '[') depth += 1;
    if (char === ']') depth -= 1;
    if (char === '/' && depth === 0) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  return [...segments, current];
}

/** The value a binding word names (`target.gedi`, `sent.deregisteredReason`), or undefined. */
export function bound(word: string, bindings: Bindings): unknown {
  return word.split('.').reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), bindings);
}

export interface Resolved {
  /** The concrete JSON path read (`$.relations[0].status.deceased`), for evidence lines. */
  path: string;
  found: boolean;
  value?: unknown;
  /** Each pointer along the way (the learned spelling, selectors kept), with what was there. */
  along: { pointer: string; value: unknown; present: boolean }[];
}

/** Follows `location` in `answer` as far as it goes; `""` is the answer itself. */
export function resolve(answer: unknown, location: string, bindings: Bindings): Resolved {
  if (location === '') return { path: '$', found: true, value: answer, along: [] };
  let value: unknown = answer;
  let path = '$';
  let pointer = '';
  const along: Resolved['along'] = [];
  for (const segment of segmentsOf(location)) {
    pointer += `/${segment}`;
    const selector = /^\[(.+)=([^=\]]+)\]$/.exec(segment);
    if (selector) {
      const [, inner, word] = selector;
      const wanted = word!.startsWith('"') ? (JSON.parse(word!) as unknown) : bound(word!, bindings);
      const index = Array.isArray(value)
        ? value.findIndex((entry) => wanted !== undefined && resolve(entry, `/${inner}`, bindings).value === wanted)
        : -1;
      if (index < 0) return { path, found: false, along: [...along, { pointer, value: undefined, present: false }] };
      value = (value as unknown[])[index];
      path += `[${index}]`;
    } else {
      const key = unescape(segment);
      const next =
        Array.isArray(value) && /^\d+$/.test(key) ? value[Number(key)] : isRecord(value) ? value[key] : undefined;
      const present = (Array.isArray(value) || isRecord(value)) && next !== undefined;
      if (!present) return { path, found: false, along: [...along, { pointer, value: undefined, present: false }] };
      value = next;
      path += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
    }
    along.push({ pointer, value, present: true });
  }
  return { path, found: true, value, along };
}

/** The JSON type of a value, as a layout file's shape names it. */
export const jsonType = (value: unknown): Shape[string] =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : (typeof value as 'object' | 'string' | 'number' | 'boolean');

/** Where the answer no longer has the learned shape: a pointer gone, or its type changed; empty when intact. */
export function shapeChanges(answer: unknown, shape: Shape, bindings: Bindings): string[] {
  const changed: { pointer: string; text: string }[] = [];
  // Outermost first; what lies under a pointer already changed has changed with it and is not named again.
  for (const [pointer, type] of Object.entries(shape).sort(([a], [b]) => a.length - b.length)) {
    if (changed.some((outer) => pointer.startsWith(`${outer.pointer}/`))) continue;
    const { found, value } = resolve(answer, pointer, bindings);
    if (!found) changed.push({ pointer, text: `${pointer} (learned ${type}) is gone` });
    else if (jsonType(value) !== type)
      changed.push({ pointer, text: `${pointer} was ${type}, now ${jsonType(value)} ${JSON.stringify(value)}` });
  }
  return changed.map(({ text }) => text);
}

/** The predicate's expected value, its binding resolved: `= true`, `= "REMOVED"`, `= target.gedi`, `> 0`. */
function expected(predicate: string, bindings: Bindings): { operator: '=' | '>'; value: unknown } {
  const operator = predicate.trim().startsWith('>') ? '>' : '=';
  const operand = predicate.trim().slice(1).trim();
  try {
    return { operator, value: JSON.parse(operand) };
  } catch {
    return { operator, value: bound(operand, bindings) };
  }
}

/** The value an `=` or `>` predicate compares with, its binding resolved (`= person.legalId`: that legal id). */
export const expectedValue = (predicate: string, bindings: Bindings): unknown => expected(predicate, bindings).value;

/** Whether `value` satisfies the predicate; a value the binding leaves undefined satisfies nothing. */
export function satisfies(value: unknown, predicate: string, bindings: Bindings): boolean {
  const { operator, value: wanted } = expected(predicate, bindings);
  if (wanted === undefined) return false;
  return operator === '>' ? typeof value === 'number' && value > Number(wanted) : value === wanted;
}
