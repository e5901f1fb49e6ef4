// Owns recording what the target did, for the observed contract: every finished exchange (its
// operation, purpose, status, the headers that matter and a sample of its redacted body) and the
// time to consistency and the statuses of the early reads of every awaited transition, one JSON
// line each, one file per worker thread.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { onWait } from '../../readings/eventually.js';
import { observeExchanges, type HttpExchange } from '../../transport/exchanges.js';

/** Headers worth documenting; request-id headers are kept by name only (their values differ per call). */
export const HEADERS_THAT_MATTER = [
  'location',
  'retry-after',
  'link',
  'cache-control',
  'content-type',
  'www-authenticate',
  'allow',
  'deprecation',
  'sunset',
];
const REQUEST_ID = /^(x-)?(request|correlation|trace|amzn-request)-?id$|^traceparent$/i;

/** Bodies kept per operation, purpose and status in one worker: enough to infer a schema, few enough to stay small. */
const SAMPLES_PER_CASE = 8;
const ITEMS_PER_LIST = 5;

export interface ExchangeLine {
  kind: 'exchange';
  operation: string;
  purpose: string;
  method: string;
  path: string;
  status: number | null;
  headers: Record<string, string>;
  requestIdHeaders: string[];
  body?: unknown;
}

export interface WaitLine {
  kind: 'wait';
  transition: string;
  /** Absent when the wait never saw the effect. */
  consistentAfterMs?: number;
  /** The last read that did not yet see it; absent when the first read did. */
  notYetAfterMs?: number;
  /** What the reads answered before one saw the effect (reads inside a wait that did not yet hold). */
  notYetStatuses: number[];
}

export type ObservationLine = ExchangeLine | WaitLine;

/** A sample of a body: lists cut to their first few items, so a page of 500 records costs five. */
function sample(body: unknown): unknown {
  if (Array.isArray(body)) return body.slice(0, ITEMS_PER_LIST).map(sample);
  if (body && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, sample(value)]));
  return body;
}

export function exchangeLine(exchange: HttpExchange, keepBody: boolean): ExchangeLine {
  const headers = Object.fromEntries(
    Object.entries(exchange.responseHeaders).filter(([name]) => HEADERS_THAT_MATTER.includes(name)),
  );
  return {
    kind: 'exchange',
    operation: exchange.operation ?? 'other',
    purpose: exchange.purpose ?? 'unnamed',
    method: exchange.method,
    path: new URL(exchange.url).pathname,
    status: exchange.status,
    headers,
    requestIdHeaders: Object.keys(exchange.responseHeaders).filter((name) => REQUEST_ID.test(name)),
    ...(keepBody && exchange.responseBody !== undefined ? { body: sample(exchange.responseBody) } : {}),
  };
}

/** Subscribes the recorder to the exchange channel and the waits; returns the unsubscribe function. */
export function recordObservations(dir: string): () => void {
  const file = join(dir, `${process.pid}-${threadId}.observations.jsonl`);
  mkdirSync(dir, { recursive: true });
  const samples = new Map<string, number>();
  const write = (line: ObservationLine) => appendFileSync(file, `${JSON.stringify(line)}\n`);
  const stopExchanges = observeExchanges((exchange) => {
    const key = `${exchange.operation} ${exchange.purpose} ${exchange.status}`;
    const kept = samples.get(key) ?? 0;
    samples.set(key, kept + 1);
    write(exchangeLine(exchange, kept < SAMPLES_PER_CASE));
  });
  const stopWaits = onWait((wait) => {
    if (!wait.transition) return;
    const consistent = wait.outcome === 'consistent' && wait.consistentAfterMs !== undefined;
    write({
      kind: 'wait',
      transition: wait.transition,
      ...(consistent ? { consistentAfterMs: wait.consistentAfterMs } : {}),
      ...(wait.notYetAfterMs === undefined ? {} : { notYetAfterMs: wait.notYetAfterMs }),
      notYetStatuses: wait.notYetStatuses,
    });
  });
  return () => {
    stopExchanges();
    stopWaits();
  };
}
