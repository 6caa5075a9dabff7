/** Counts attempts per key in a sliding window; `hit` answers how long to wait (0 = allowed). */
export class SlidingWindowLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an attempt for `key`; returns 0 when it is allowed, else the milliseconds until the next one is. */
  hit(key: string): number {
    const t = this.now();
    const recent = (this.hits.get(key) ?? []).filter((at) => at > t - this.windowMs);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return recent[0]! + this.windowMs - t;
    }
    recent.push(t);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(t);
    return 0;
  }

  reset(key: string) {
    this.hits.delete(key);
  }

  private prune(t: number) {
    for (const [key, times] of this.hits) if (times.every((at) => at <= t - this.windowMs)) this.hits.delete(key);
  }
}
