// Owns the observed contract of one run: the recorded lines merged into what the target did, per
// operation and kind of request (statuses with counts, the headers that matter, an inferred schema
// and a redacted example per status, where the documented values sit, the paging convention), the
// token lifetime, the time to consistency per transition and what the reads answered before they saw it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

export interface Timing {
  n: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** The reads inside the waits for one transition that did not yet see its effect. */
export interface EarlyReads {
  waits: number;
  reads: number;
  statuses: Record<string, number>;
}

export interface ObservedContract {
  cases: ObservedCase[];
  tokenLifetimesS: number[];
  timings: Record<string, Timing>;
  earlyReads: Record<string, EarlyReads>;
}

/** The names and values the documentation gives, looked for in every answer. */
const DOCUMENTED_KEYS = ['gedi', 'access_token', 'expires_in', 'legalId', 'consumerId', 'market', 'reference'];

export function readObservationLines(dir: string): ObservationLine[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.observations.jsonl'))
    .flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as ObservationLine),
    );
}

/** Items by key, in the order each key was first seen. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export function timingOf(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50Ms: Math.round(percentile(sorted, 0.5)),
    p95Ms: Math.round(percentile(sorted, 0.95)),
    maxMs: Math.round(sorted.at(-1)!),
  };
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
  const [first] = lines;
  const byStatus = groupBy(lines, (line) => String(line.status ?? 'no answer'));
  const accepted = lines.filter(
    (line) => line.status !== null && line.status >= 200 && line.status < 300 && line.body !== undefined,
  );
  const documentedValues = Object.fromEntries(
    DOCUMENTED_KEYS.map(
      (key) =>
        [
          key,
          pathsOf(
            accepted.map((line) => line.body),
            (name) => name === key,
          ),
        ] as const,
    ).filter(([, paths]) => paths.length > 0),
  );
  const states = pathsOf(
    accepted.map((line) => line.body),
    (_name, value) => value === 'IDENTIFIED',
  );
  if (states.length > 0) documentedValues.IDENTIFIED = states;
  const pagings = accepted.map((line) => {
    const step = nextPage({ body: line.body, headers: line.headers });
    return step.next || step.unreachable ? step.convention : undefined;
  });
  const paging = pagings.find((convention) => convention !== undefined);
  return {
    operation: first!.operation,
    purpose: first!.purpose,
    method: first!.method,
    path: first!.path,
    samples: lines.length,
    statuses: Object.fromEntries(
      [...byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, group]) => [status, statusObservation(group)]),
    ),
    documentedValues,
    ...(paging ? { paging } : {}),
  };
}

function earlyReadsOf(waits: WaitLine[]): EarlyReads {
  const statuses: Record<string, number> = {};
  for (const status of waits.flatMap((wait) => wait.notYetStatuses)) statuses[status] = (statuses[status] ?? 0) + 1;
  return { waits: waits.length, reads: Object.values(statuses).reduce((sum, count) => sum + count, 0), statuses };
}

/** Where a path names a person by gedi, the template does: one case per operation, not per person. */
const templatePath = (path: string): string =>
  path.replace(/\/persons\/(?!_find)[^/]+$/, '/persons/{gedi}').replace(/\/markets\/[^/]+\//, '/markets/{market}/');

export function buildContract(lines: ObservationLine[]): ObservedContract {
  const exchanges = lines.filter((line): line is ExchangeLine => line.kind === 'exchange');
  const groups = groupBy(
    exchanges.map((line) => ({ ...line, path: templatePath(line.path) })),
    (line) => `${line.operation} ${line.purpose}`,
  );
  const waitsByTransition = [
    ...groupBy(
      lines.filter((line) => line.kind === 'wait'),
      (wait) => wait.transition,
    ),
  ].sort(([a], [b]) => (a < b ? -1 : 1));
  const timings = waitsByTransition.flatMap(([transition, waits]) => {
    const delays = waits.flatMap((wait) => (wait.consistentAfterMs === undefined ? [] : [wait.consistentAfterMs]));
    return delays.length ? [[transition, timingOf(delays)] as const] : [];
  });
  const tokens = exchanges.filter(
    (line) =>
      line.operation === 'token' && typeof (line.body as { expires_in?: unknown } | undefined)?.expires_in === 'number',
  );
  return {
    cases: [...groups.values()]
      .map(observedCase)
      .sort((a, b) => `${a.operation} ${a.purpose}`.localeCompare(`${b.operation} ${b.purpose}`)),
    tokenLifetimesS: [...new Set(tokens.map((line) => (line.body as { expires_in: number }).expires_in))],
    timings: Object.fromEntries(timings),
    earlyReads: Object.fromEntries(waitsByTransition.map(([transition, waits]) => [transition, earlyReadsOf(waits)])),
  };
}
