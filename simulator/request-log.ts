/**
 * What the control surface reports about traffic: counts per route pattern, tokens issued, faults injected, requests
 * refused by the rate limit.
 */
export class RequestLog {
  readonly counts = new Map<string, number>();
  faultsInjected = 0;
  throttled = 0;

  count(method: string, routePattern: string): void {
    const key = `${method} ${routePattern}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
