import { AppError } from "../../errors";
import { TokenBucket } from "../../shared/token-bucket";

/** Requests one API token may make in a burst, and how many it regains per second after it. */
export const API_BURST = 20;
export const API_PER_SECOND = 1;

/**
 * One token bucket per API token. Only the valid token gets one, so a regenerated token replaces the old
 * token's bucket and starts full.
 */
export class ApiRateLimiter {
  private buckets = new Map<string, TokenBucket>();

  constructor(private readonly now: () => number) {}

  /** Spends one request of this token, or throws 429 ERR_TOO_MANY_ATTEMPTS. */
  take(token: string) {
    let bucket = this.buckets.get(token);
    if (!bucket) {
      this.buckets.clear();
      bucket = new TokenBucket(API_BURST, API_PER_SECOND, this.now);
      this.buckets.set(token, bucket);
    }
    if (!bucket.take()) throw new AppError("ERR_TOO_MANY_ATTEMPTS", 429);
  }
}
