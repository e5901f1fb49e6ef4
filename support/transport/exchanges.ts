// Owns the channel on which the HTTP client announces each finished attempt. The client only
// publishes; the report evidence, the observed-contract recorder and any counter subscribe here,
// so a request's data flows one way: spec → domain verb → client → observers.
import { channel } from 'node:diagnostics_channel';

export interface HttpExchange {
  method: string;
  url: string;
  status: number | null;
  durationMs: number;
  /**
   * How long the attempt waited to be sent for the target's rate: for its client's pauses and
   * spacing (support/transport/pace.ts; not the start's window, the run's own caution), and after a
   * throttled answer for its Retry-After; 0 when it went at once.
   */
  pacedMs: number;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  responseHeaders: Record<string, string>;
  responseBody?: unknown;
  attempt: number;
  error?: string;
  /** Catalogue operation id (op1, op3, ...) the caller named; undefined for calls outside the catalogue. */
  operation?: string;
  /** What the caller was doing, e.g. "Request token" or "early read"; the client never interprets it. */
  purpose?: string;
}

export type ExchangeObserver = (exchange: HttpExchange) => void;

// diagnostics_channel, like undici's own `undici:request:*` channels: publishing costs nothing
// without subscribers, and the client needs no list of who listens.
const finished = channel('contract-suite:http-exchange');

/** Announces one finished attempt (already redacted) to every observer. */
export function publishExchange(exchange: HttpExchange): void {
  if (finished.hasSubscribers) finished.publish(exchange);
}

/**
 * Calls `observer` after every attempt of every client in this thread; returns the unsubscribe
 * function. An observer that throws is reported and skipped: what watches a request must never
 * change its outcome (diagnostics_channel would otherwise turn the throw into an uncaught exception).
 */
export function observeExchanges(observer: ExchangeObserver): () => void {
  const listener = (message: unknown): void => {
    try {
      observer(message as HttpExchange);
    } catch (error) {
      console.warn(`an exchange observer failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  finished.subscribe(listener);
  return () => {
    finished.unsubscribe(listener);
  };
}
