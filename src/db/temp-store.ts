import { dialectOf, inTransaction, sqliteClient } from "./client";

/**
 * Each savepoint keeps the pages it changes in a sub-journal, which SQLite moves to a temporary file past 64 KiB
 * unless temporary storage is in memory: a stored message changes more than that (message, ticket and their
 * indexes), so every message wrote and read back a temporary file, about a quarter of its cost. In memory the
 * sub-journal is emptied at each release. Only for the work: in memory for good, a large sort (building an index
 * over a million messages in a migration) would hold all its rows in memory instead of spilling them to disk.
 */
const IN_MEMORY_TEMP = "PRAGMA temp_store = MEMORY";
const DEFAULT_TEMP = "PRAGMA temp_store = DEFAULT";

/**
 * Runs `work` (a transaction of many savepoints) with SQLite's temporary storage in memory, when it opens its own
 * transaction there; inside an open transaction, and on PostgreSQL, as it is.
 */
export async function withTempStoreInMemory<T>(db: object, work: () => Promise<T>): Promise<T> {
  const client = dialectOf(db) === "sqlite" && !inTransaction(db) ? sqliteClient(db) : undefined;
  if (!client) return await work();
  client.exec(IN_MEMORY_TEMP);
  try {
    return await work();
  } finally {
    client.exec(DEFAULT_TEMP);
  }
}
