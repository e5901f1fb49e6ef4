// Owns the simulator's rate limit: a token bucket per client (requests a second, a second's worth of
// burst), as a shared sandbox limits how fast one client may call it. Beyond it the request is
// answered 429 with Retry-After and not processed.

/** One client's bucket: `tokens` left at `at` (the simulator's clock, ms). */
interface Bucket {
  tokens: number;
  at: number;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterS: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** @param perSecond requests a second per client; 0 admits everything. */
  constructor(private readonly perSecond: number) {}

  /** Takes one request of `client` at `now` out of its bucket, or says how many whole seconds to come back after. */
  admit(client: string, now: number): Admission {
    if (this.perSecond <= 0) return { admitted: true };
    // A second's worth of requests may come at once (at least one, for limits below one a second).
    const capacity = Math.max(1, this.perSecond);
    const bucket = this.buckets.get(client) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { admitted: true };
    }
    // Retry-After is whole seconds (delay-seconds), rounded up so that a client that honours it is admitted.
    return { admitted: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }
}
