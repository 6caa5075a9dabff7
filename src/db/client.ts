import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { restrictFile } from "../private-files";
import * as schema from "./schema";

export type Db = ReturnType<typeof openDatabase>;

/** The database or an open transaction, for reads; a transaction shares the query API. */
export type Reader = Pick<Db, "select">;

/** The database or an open transaction: a write that must be atomic with the caller's takes its transaction. */
export type Writer = Pick<Db, "select" | "insert" | "update" | "delete" | "run">;

/**
 * Opens (or creates) the SQLite database with WAL, foreign keys and a busy timeout. The file is private to the
 * server's user; SQLite gives its -wal and -shm files the database file's mode.
 */
export function openDatabase(path: string) {
  const client = new Database(path, { create: true, strict: true });
  if (path !== ":memory:") for (const suffix of ["", "-wal", "-shm"]) restrictFile(path + suffix);
  client.exec("PRAGMA journal_mode = WAL");
  client.exec("PRAGMA synchronous = NORMAL");
  client.exec("PRAGMA foreign_keys = ON");
  client.exec("PRAGMA busy_timeout = 5000");
  return drizzle({ client, schema });
}

/** Checkpoints the WAL and closes the file. */
export function closeDatabase(db: Db) {
  db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.$client.close();
}
