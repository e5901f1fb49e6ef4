// Owns the observed contract of one run: per operation and kind of request its statuses, headers, inferred schemas,
// examples, documented values and paging; the token lifetime; per transition its time to consistency, as intervals,
// and early reads; per list what reading it cost.
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nextPage } from '../../readings/list-reader.js';
import type { ExchangeLine, ListReadLine, ObservationLine, WaitLine } from './recorder.js';

export interface StatusObservation {
  count: number;
  headers: Record<string, string[]>;
  requestIdHeaders: string[];
  schema?: JsonSchema;
  example?: unknown;
}

export interface ObservedCase {
  operation: string;
  purpose: string;
  method: string;
  path: string;
  samples: number;
  statuses: Record<string, StatusObservation>;
  /** Where each documented name was found in the 2xx bodies. */
  documentedValues: Record<string, string[]>;
  paging?: string;
}

/**
 * When an effect came, as reads from outside can tell: after the last read that did not show it was sent (0 when the
 * first read did) and by the answer of the first that did, each counted from the acknowledged write.
 */
export type Interval = { afterMs: number; byMs: number };

/** Over a transition's waits that saw the effect: how many; the median, 95th percentile and maximum as intervals. */
export type Timing = { n: number; p50: Interval; p95: Interval; max: Interval };

/** The page size the run's summary weighs a list's reads at when pages are most of its requests. */
export const ADVISED_PAGE_SIZE = 100;

/** What reading one list (the operation and purpose of its pages) cost over the run. */
export interface ListCost {
  operation: string;
  purpose: string;
  reads: number;
  /** Reads to the last page: every absence check, and every look for a record not (yet) listed. */
  wholeReads: number;
  pages: number;
  /** The pages of the longest read to the end: a list that grows shows here, night after night. */
  longestWholeRead: number;
  /** The most records one page held. */
  fullestPage: number;
  /** Every request for its pages, refused and retried ones included. */
  requests: number;
  /** The pages the same reads would have cost at ADVISED_PAGE_SIZE records a page. */
  pagesAtAdvisedSize: number;
}

export interface ObservedContract {
  /** Every request of the run, refused and retried ones included. */
  requests: number;
  lists: ListCost[];
  cases: ObservedCase[];
  tokenLifetimesS: number[];
  timings: Record<string, Timing>;
  /** Per transition, what the reads inside its waits answered before one saw the effect. */
  earlyReads: Record<string, { waits: number; reads: number; statuses: Record<string, number> }>;
}

/** The names and values the documentation gives, looked for in every answer. */
const DOCUMENTED_KEYS = ['gedi', 'access_token', 'expires_in', 'legalId', 'consumerId', 'market', 'reference'];

export function readObservationLines(dir: string): ObservationLine[] {
  return globSync('*.observations.jsonl', { cwd: dir })
    .sort()
    .flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as ObservationLine),
    );
}

/**
 * n, and the nearest-rank p50, p95 and maximum of the bounds apart: as each effect came within its own interval, a
 * percentile of the effects lies between the same percentile of the lower bounds and that of the upper ones.
 */
function timingOf(intervals: Interval[]): Timing {
  const sorted = (bound: keyof Interval) => intervals.map((interval) => interval[bound]).sort((a, b) => a - b);
  const [after, by] = [sorted('afterMs'), sorted('byMs')];
  const at = (share: number): Interval => {
    const rank = Math.max(0, Math.ceil(share * intervals.length) - 1);
    return { afterMs: Math.round(after[rank]!), byMs: Math.round(by[rank]!) };
  };
  return { n: intervals.length, p50: at(0.5), p95: at(0.95), max: at(1) };
}

function statusObservation(lines: ExchangeLine[]): StatusObservation {
  const bodies = lines.filter((line) => line.body !== undefined).map((line) => line.body);
  const headers: Record<string, string[]> = {};
  for (const line of lines)
    for (const [name, value] of Object.entries(line.headers))
      headers[name] = [...new Set([...(headers[name] ?? []), value])].slice(0, 5);
  return {
    count: lines.length,
    headers,
    requestIdHeaders: [...new Set(lines.flatMap((line) => line.requestIdHeaders))],
    ...(bodies.length > 0 ? { schema: inferSchema(bodies), example: bodies[0] } : {}),
  };
}

function observedCase(lines: ExchangeLine[]): ObservedCase {
  const [{ operation, purpose, method, path }] = lines as [ExchangeLine];
  const accepted = lines.filter((line) => String(line.status).startsWith('2') && line.body !== undefined);
  const bodies = accepted.map((line) => line.body);
  const documentedValues: Record<string, string[]> = {};
  for (const key of [...DOCUMENTED_KEYS, 'IDENTIFIED']) {
    const paths = pathsOf(bodies, (name, value) => (key === 'IDENTIFIED' ? value === key : name === key));
    if (paths.length > 0) documentedValues[key] = paths;
  }
  const byStatus = [...Map.groupBy(lines, (line) => String(line.status ?? 'no answer'))];
  return {
    operation,
    purpose,
    method,
    path,
    samples: lines.length,
    statuses: Object.fromEntries(
      byStatus.sort(([a], [b]) => a.localeCompare(b)).map(([status, group]) => [status, statusObservation(group)]),
    ),
    documentedValues,
    paging: accepted
      .map((line) => nextPage({ body: line.body, headers: line.headers }))
      .find((step) => step.next || step.unreachable)?.convention,
  };
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

function listCost(reads: ListReadLine[], exchanges: ExchangeLine[]): ListCost {
  const [{ operation, purpose }] = reads as [ListReadLine];
  const whole = reads.filter((read) => read.complete);
  // A read stops where its record is: at a larger size, as many pages as its records fill (none if none was read).
  const atAdvisedSize = reads.map(({ pages, records }) =>
    pages === 0 ? 0 : Math.max(1, Math.ceil(records / ADVISED_PAGE_SIZE)),
  );
  return {
    operation,
    purpose,
    reads: reads.length,
    wholeReads: whole.length,
    pages: sum(reads.map((read) => read.pages)),
    longestWholeRead: Math.max(0, ...whole.map((read) => read.pages)),
    fullestPage: Math.max(0, ...reads.map((read) => read.fullestPage)),
    requests: exchanges.filter((line) => line.operation === operation && line.purpose === purpose).length,
    pagesAtAdvisedSize: sum(atAdvisedSize),
  };
}

/** Where a path names a person by gedi, the template does: one case per operation, not per person. */
const templatePath = (path: string): string =>
  path.replace(/\/persons\/(?!_find)[^/]+$/, '/persons/{gedi}').replace(/\/markets\/[^/]+\//, '/markets/{market}/');

export function buildContract(lines: ObservationLine[]): ObservedContract {
  const exchanges = lines.filter((line): line is ExchangeLine => line.kind === 'exchange');
  const cases = Map.groupBy(
    exchanges.map((line) => ({ ...line, path: templatePath(line.path) })),
    (line) => `${line.operation} ${line.purpose}`,
  );
  const waits = Map.groupBy(
    lines.filter((line): line is WaitLine => line.kind === 'wait'),
    (wait) => wait.transition,
  );
  const timings: Record<string, Timing> = {};
  const earlyReads: ObservedContract['earlyReads'] = {};
  for (const [transition, group] of [...waits].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const intervals = group.flatMap(({ seenByMs, notYetAfterMs }) =>
      seenByMs === undefined ? [] : [{ afterMs: notYetAfterMs ?? 0, byMs: seenByMs }],
    );
    if (intervals.length) timings[transition] = timingOf(intervals);
    const reads = group.flatMap((wait) => wait.notYetStatuses);
    const statuses: Record<string, number> = {};
    for (const status of reads) statuses[status] = (statuses[status] ?? 0) + 1;
    earlyReads[transition] = { waits: group.length, reads: reads.length, statuses };
  }
  const lifetimes = exchanges.map(
    (line) => line.operation === 'token' && (line.body as { expires_in?: unknown })?.expires_in,
  );
  const listReads = Map.groupBy(
    lines.filter((line): line is ListReadLine => line.kind === 'list read'),
    (read) => `${read.operation} ${read.purpose}`,
  );
  return {
    requests: exchanges.length,
    lists: [...listReads.values()]
      .map((reads) => listCost(reads, exchanges))
      .sort((a, b) => `${a.operation} ${a.purpose}`.localeCompare(`${b.operation} ${b.purpose}`)),
    cases: [...cases.values()]
      .map(observedCase)
      .sort((a, b) => `${a.operation} ${a.purpose}`.localeCompare(`${b.operation} ${b.purpose}`)),
    tokenLifetimesS: [...new Set(lifetimes.filter((seconds) => typeof seconds === 'number'))],
    timings,
    earlyReads,
  };
}

/** Where each documented name was found in the accepted answers of these cases. */
export function documentedValuesOf(cases: ObservedCase[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const observed of cases)
    for (const [name, paths] of Object.entries(observed.documentedValues))
      found[name] = [...new Set([...(found[name] ?? []), ...paths])].sort();
  return found;
}

/** The media types a status was answered with, without parameters (`application/problem+json`). */
export const mediaTypesOf = (seen: StatusObservation): string[] => [
  ...new Set((seen.headers['content-type'] ?? []).map((value) => value.split(';')[0]!.trim())),
];

/** Every status these cases answered, with the case that met it, in the cases' order. */
export const answersOf = (cases: ObservedCase[]) =>
  cases.flatMap((observed) => Object.entries(observed.statuses).map(([status, seen]) => ({ observed, status, seen })));

export const pagingsOf = (cases: ObservedCase[]): string[] => [
  ...new Set(cases.map((observed) => observed.paging).filter((paging) => paging !== undefined)),
];

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

/** The schema every sample satisfies, small sets of short strings (a consumer's states) as `enum`; none without any. */
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
