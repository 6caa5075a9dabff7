/** Adds `value` to the set of `key`, making the set on first use. */
export function indexAdd<K, V>(index: Map<K, Set<V>>, key: K, value: V) {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

/** Removes `value` from the set of `key`; the set goes with its last value. */
export function indexDelete<K, V>(index: Map<K, Set<V>>, key: K, value: V) {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}
