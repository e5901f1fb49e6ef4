// The channel of finished attempts: the HTTP client only publishes, and the report, the observed contract and any
// counter subscribe. A diagnostics_channel, like undici's own: publishing costs nothing without subscribers.
import { channel } from 'node:diagnostics_channel';

export interface HttpExchange {
  method: string;
  url: string;
  status: number | null;
  durationMs: number;
  /** How long the attempt waited for the target's rate: the pace's pauses and spacing, or a Retry-After. */
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

const finished = channel('contract-suite:http-exchange');

/** Announces one finished attempt (already redacted) to every observer. */
export function publishExchange(exchange: HttpExchange): void {
  if (finished.hasSubscribers) finished.publish(exchange);
}

/** Calls `observer` after every attempt until unsubscribed; a throw is reported, never changing a request's outcome. */
export function observeExchanges(observer: (exchange: HttpExchange) => void): () => void {
  const listener = (message: unknown): void => {
    try {
      observer(message as HttpExchange);
    } catch (error) {
      console.warn(`an exchange observer failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  finished.subscribe(listener);
  return () => void finished.unsubscribe(listener);
}
