// Owns recording what the target did, for the observed contract: every finished exchange, every awaited transition
// and what every read of a list cost, one JSON line each, one file per worker thread.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { onWait, type WaitAttempts } from '../../readings/eventually.js';
import { onListRead, type ListPaging } from '../../readings/list-reader.js';
import { observeExchanges } from '../../transport/exchanges.js';

/** Headers worth documenting; request-id headers are kept by name only (their values differ per call). */
const HEADERS_THAT_MATTER =
  /^(location|retry-after|link|cache-control|content-type|www-authenticate|allow|deprecation|sunset)$/;
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

/**
 * An awaited transition, from the wait's start: when the last read that did not see the effect was sent
 * (`notYetAfterMs`), and when the answer of the first that did came back (`seenByMs`; absent when none did).
 */
export type WaitLine = { kind: 'wait'; transition: string; seenByMs?: number } & Pick<
  WaitAttempts,
  'notYetAfterMs' | 'notYetStatuses'
>;

/** A read of a list that ended: its pages, requests and records, under the operation and purpose of its pages. */
export type ListReadLine = { kind: 'list read'; operation: string; purpose: string } & ListPaging;

export type ObservationLine = ExchangeLine | WaitLine | ListReadLine;

/** A sample of a body: lists cut to their first few items, so a page of 500 records costs five. */
function sample(body: unknown): unknown {
  if (Array.isArray(body)) return body.slice(0, ITEMS_PER_LIST).map(sample);
  if (body && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, sample(value)]));
  return body;
}

/** Subscribes the recorder to the exchange channel and the waits; returns the unsubscribe function. */
export function recordObservations(dir: string): () => void {
  const file = join(dir, `${process.pid}-${threadId}.observations.jsonl`);
  mkdirSync(dir, { recursive: true });
  const samples = new Map<string, number>();
  // Members left undefined are not written.
  const write = (line: ObservationLine) => appendFileSync(file, `${JSON.stringify(line)}\n`);
  const stopExchanges = observeExchanges((exchange) => {
    const key = `${exchange.operation} ${exchange.purpose} ${exchange.status}`;
    samples.set(key, (samples.get(key) ?? 0) + 1);
    write({
      kind: 'exchange',
      operation: exchange.operation ?? 'other',
      purpose: exchange.purpose ?? 'unnamed',
      method: exchange.method,
      path: new URL(exchange.url).pathname,
      status: exchange.status,
      headers: Object.fromEntries(
        Object.entries(exchange.responseHeaders).filter(([name]) => HEADERS_THAT_MATTER.test(name)),
      ),
      requestIdHeaders: Object.keys(exchange.responseHeaders).filter((name) => REQUEST_ID.test(name)),
      body: samples.get(key)! <= SAMPLES_PER_CASE ? sample(exchange.responseBody) : undefined,
    });
  });
  const stopWaits = onWait(({ transition, outcome, elapsedMs, notYetAfterMs, notYetStatuses }) => {
    if (!transition) return;
    // The target showed the effect before it answered the read that saw it: the answer bounds the effect.
    const seenByMs = outcome === 'consistent' ? elapsedMs : undefined;
    write({ kind: 'wait', transition, seenByMs, notYetAfterMs, notYetStatuses });
  });
  const stopListReads = onListRead(({ operation = 'other', purpose = 'unnamed', ...cost }) =>
    write({ kind: 'list read', operation, purpose, ...cost }),
  );
  return () => {
    stopExchanges();
    stopWaits();
    stopListReads();
  };
}
