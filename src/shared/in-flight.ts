/**
 * `read` whose calls with an equal key, made while one is under way, share that call's answer; a call made after
 * it answered reads again. Nothing is kept: what is read is never older than the call that is waiting for it.
 */
export function sharedInFlight<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const pending = new Map<K, Promise<V>>();
  return (key) => {
    let answer = pending.get(key);
    if (!answer) {
      answer = read(key).finally(() => pending.delete(key));
      pending.set(key, answer);
    }
    return answer;
  };
}
