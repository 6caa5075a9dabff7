import { inTransaction, pipelinesStatements, type Reader } from "./client";

/** The most keys one statement asks for; more wait for the next one. */
const MAX_KEYS = 500;

interface Waiting<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * A lookup by key whose calls of one turn of the event loop are answered by one statement for all their keys
 * (`readMany`, which answers the keys it found), where each statement costs a round trip and the server's work of
 * a query (PostgreSQL). On SQLite, and inside a transaction (whose statements the caller's own order decides), each
 * call is `readOne` as before. Keys are compared as map keys (strings or numbers).
 */
export function coalesced<K, V>(
  db: Reader,
  readOne: (key: K) => Promise<V | undefined>,
  readMany: (keys: K[]) => Promise<Map<K, V>>,
): (key: K) => Promise<V | undefined> {
  if (!pipelinesStatements(db)) return readOne;
  let waiting = new Map<K, Waiting<V>[]>();
  const flush = async () => {
    const asked = waiting;
    waiting = new Map();
    const keys = [...asked.keys()];
    for (let i = 0; i < keys.length; i += MAX_KEYS) {
      const part = keys.slice(i, i + MAX_KEYS);
      try {
        const found = await readMany(part);
        for (const key of part) for (const caller of asked.get(key)!) caller.resolve(found.get(key));
      } catch (error) {
        for (const key of part) for (const caller of asked.get(key)!) caller.reject(error);
      }
    }
  };
  return (key) => {
    if (inTransaction(db)) return readOne(key);
    return new Promise<V | undefined>((resolve, reject) => {
      if (waiting.size === 0) setImmediate(() => void flush());
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
  };
}
