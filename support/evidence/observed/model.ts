// Owns the observed contract of one run: per operation and kind of request its statuses, headers, schemas, examples,
// documented values and paging; the token lifetime; per transition its time to consistency and early reads.
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nextPage } from '../../readings/list-reader.js';
import type { ExchangeLine, ObservationLine, WaitLine } from './recorder.js';
import { inferSchema, pathsOf, type JsonSchema } from './schema-inference.js';

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

export type Timing = Record<'n' | 'p50Ms' | 'p95Ms' | 'maxMs', number>;

export interface ObservedContract {
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

/** n, and the nearest-rank p50, p95 and maximum. */
function timingOf(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!);
  return { n: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
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
    const delays = group.flatMap((wait) => wait.consistentAfterMs ?? []);
    if (delays.length) timings[transition] = timingOf(delays);
    const reads = group.flatMap((wait) => wait.notYetStatuses);
    const statuses: Record<string, number> = {};
    for (const status of reads) statuses[status] = (statuses[status] ?? 0) + 1;
    earlyReads[transition] = { waits: group.length, reads: reads.length, statuses };
  }
  const lifetimes = exchanges.map(
    (line) => line.operation === 'token' && (line.body as { expires_in?: unknown })?.expires_in,
  );
  return {
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
