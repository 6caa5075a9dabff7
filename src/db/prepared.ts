import type { Db, Reader } from "./client";

/**
 * A hot query built and compiled once per database (drizzle's `.prepare()` with `sql.placeholder` values):
 * building a query through drizzle costs more than SQLite takes to run it. The result also works inside a
 * transaction, which shares the database's connection.
 */
export function prepared<Q>(build: (db: Db) => Q): (db: Reader) => Q {
  const byConnection = new WeakMap<object, Q>();
  return (db) => {
    // A database and its transactions share drizzle's session (one connection).
    const key = (db as unknown as { session?: object }).session ?? db;
    let query = byConnection.get(key);
    if (!query) {
      query = build(db as Db);
      byConnection.set(key, query);
    }
    return query;
  };
}
