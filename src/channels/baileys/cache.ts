import type { CacheStore } from "baileys";

/**
 * A bounded in-memory cache in the shape Baileys asks for (msgRetryCounterCache, the signal key cache): entries
 * expire `ttlMs` after they were last set, and beyond `max` entries the oldest go first.
 */
export class TtlCache implements CacheStore {
  private entries = new Map<string, { value: unknown; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size() {
    return this.entries.size;
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(key: string, value: T) {
    const now = this.now();
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + this.ttlMs });
    // Entries sit in the order they were set, which is also the order they expire in.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.max && entry.expires > now) break;
      this.entries.delete(oldest);
    }
  }

  del(key: string) {
    this.entries.delete(key);
  }

  flushAll() {
    this.entries.clear();
  }
}
