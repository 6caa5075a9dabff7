import type { EventBus } from "./bus";
import type { DomainEvent } from "./catalogue";

export interface KeptReadOptions<V> {
  /** Whether a value read is kept (by default every one). */
  keep?: (value: V) => boolean;
  /** Read again once a kept value is this old, on `now`'s clock: for a node whose bus may miss a notice. */
  maxAgeMs?: number;
  now?: () => number;
}

/** A read by key whose answers are kept; `forget` drops them all. */
export interface KeptRead<K, V> {
  (key: K): Promise<V>;
  forget(): void;
}

/**
 * Answers of `read` kept in memory, per key, until an event heard from every node (`subscribeAll`) says they
 * changed: `changes` names the key an event changes, or `"all"`. A read that was under way while such an event
 * arrived is not kept, since it may predate the change.
 */
export function keptReads<K, V>(
  events: EventBus,
  read: (key: K) => Promise<V>,
  changes: (event: DomainEvent) => K | "all" | undefined,
  options: KeptReadOptions<V> = {},
): KeptRead<K, V> {
  const { keep = () => true, maxAgeMs = Number.POSITIVE_INFINITY, now = Date.now } = options;
  const known = new Map<K, { value: V; at: number }>();
  let forgotten = 0;
  const forget = (key: K | "all") => {
    if (key === "all") known.clear();
    else known.delete(key);
    forgotten++;
  };
  events.subscribeAll((event) => {
    const key = changes(event);
    if (key !== undefined) forget(key);
  });
  const kept = async (key: K) => {
    const at = now();
    const cached = known.get(key);
    if (cached && at - cached.at < maxAgeMs) return cached.value;
    const before = forgotten;
    const value = await read(key);
    if (forgotten === before && keep(value)) known.set(key, { value, at });
    return value;
  };
  return Object.assign(kept, { forget: () => forget("all") });
}
