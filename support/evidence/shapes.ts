// Owns recording the JSON shape of every 2xx response body the run sees, for the drift report.
// Records the JSON shape of every response body the contract run sees, for the drift report
// (support/evidence/drift-report.ts). Only shapes are written — types, keys, array item shapes — never a value,
// so nothing recorded here can leak a secret or personal data.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { catalogue } from '../run/catalogue.js';
import { observeExchanges } from '../transport/exchanges.js';
import { OBSERVED_DIR } from '../run/paths.js';

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface Shape {
  types: JsonType[];
  /** Keys of the objects seen, when `types` has 'object'. */
  properties?: Record<string, Shape>;
  /** Merged shape of every element of every array seen; absent when only empty arrays were seen. */
  items?: Shape;
  /** The key was missing from some of the objects that held its siblings. */
  optional?: true;
}

export interface ObservedLine {
  operation: string;
  shape: Shape;
}

const TYPE_ORDER: JsonType[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];

function typeOf(value: unknown): JsonType {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'object':
      return 'object';
    default:
      return 'string';
  }
}

export function shapeOf(value: unknown): Shape {
  const type = typeOf(value);
  if (type === 'array') {
    const items = (value as unknown[]).map(shapeOf);
    return items.length === 0 ? { types: ['array'] } : { types: ['array'], items: items.reduce(mergeShapes) };
  }
  if (type === 'object') {
    const properties: Record<string, Shape> = {};
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) properties[key] = shapeOf(child);
    return { types: ['object'], properties };
  }
  return { types: [type] };
}

function mergeProperties(a: Record<string, Shape>, b: Record<string, Shape>): Record<string, Shape> {
  const merged: Record<string, Shape> = {};
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const left = a[key];
    const right = b[key];
    merged[key] = left && right ? mergeShapes(left, right) : { ...(left ?? right)!, optional: true };
  }
  return merged;
}

/** The shape that describes every value either shape describes. */
export function mergeShapes(a: Shape, b: Shape): Shape {
  const types = TYPE_ORDER.filter((type) => a.types.includes(type) || b.types.includes(type));
  const merged: Shape = { types };
  // Only two objects can disagree about a key: `{...} | null` does not make the object's keys optional.
  const properties = a.properties && b.properties ? mergeProperties(a.properties, b.properties) : (a.properties ?? b.properties);
  if (properties) merged.properties = properties;
  const items = a.items && b.items ? mergeShapes(a.items, b.items) : (a.items ?? b.items);
  if (items) merged.items = items;
  if (a.optional || b.optional) merged.optional = true;
  return merged;
}

// Catalogue paths that are templates ("{base_url}/…/persons/{gedi}"), as patterns over a request path.
const documentedRoutes = catalogue.operations
  .filter((operation) => operation.path.startsWith('{'))
  .map((operation) => ({
    id: operation.id,
    method: operation.method,
    pattern: new RegExp(`^${operation.path.replace(/^\{[a-z_]+\}/, '').replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
  }));

/**
 * The key a shape is filed under. Callers that name the catalogue operation (`op3`) are taken at
 * their word; a bare "METHOD /path" is matched against the documented routes, and otherwise any
 * identifier-like segment becomes {id} — a key per created person would make every run "drift".
 */
export function operationKey(operation: string): string {
  const match = /^([A-Z]+) ([^?#]+)/.exec(operation);
  if (!match) return operation;
  const [, method, path] = match as unknown as [string, string, string];
  const route = documentedRoutes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
  if (route) return route.id;
  return `${method} ${path.replace(/\/(?=[^/]*\d)[^/]{8,}(?=\/|$)/g, '/{id}')}`;
}

/** Operation keys become file names (reports/observed lines, schemas/observed/<operation>.json). */
export function operationFileStem(operation: string): string {
  return operation.replace(/[^\w.-]+/g, '_');
}

export interface ShapeRecorder {
  record(operation: string, body: unknown): void;
}

/**
 * Appends one JSON line per new (operation, shape) pair to `<dir>/<pid>-<threadId>.jsonl`.
 * One file per worker thread (the contract project runs threads, which share a pid), so no two
 * writers ever share a file; identical shapes are written once per worker, which keeps the
 * cost of a recording to computing the shape.
 */
export function createShapeRecorder(dir: string): ShapeRecorder {
  const file = join(dir, `${process.pid}-${threadId}.jsonl`);
  const written = new Set<string>();
  return {
    record(operation, body) {
      if (body === undefined || body === '') return;
      const line = JSON.stringify({ operation: operationKey(operation), shape: shapeOf(body) } satisfies ObservedLine);
      if (written.has(line)) return;
      written.add(line);
      if (written.size === 1) mkdirSync(dir, { recursive: true });
      appendFileSync(file, `${line}\n`);
    },
  };
}

/**
 * Records the shape of every 2xx body the HTTP client receives, filed under its catalogue
 * operation; returns the unsubscribe function. Error bodies have no documented shape to drift from.
 */
export function recordShapes(dir = join(process.cwd(), OBSERVED_DIR)): () => void {
  const recorder = createShapeRecorder(dir);
  return observeExchanges((exchange) => {
    if (exchange.status === null || exchange.status < 200 || exchange.status >= 300) return;
    // A failing recorder (a full disk) is reported by observeExchanges and never fails a request.
    recorder.record(exchange.operation ?? `${exchange.method} ${new URL(exchange.url).pathname}`, exchange.responseBody);
  });
}
