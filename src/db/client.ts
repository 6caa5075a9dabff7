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
  reuseStatements(client);
  return drizzle({ client, schema });
}

/** How many compiled statements one connection keeps; queries with a variable number of parameters vary. */
const STATEMENT_CACHE_SIZE = 500;
/** Only queries are kept: schema changes and pragmas run once. */
const QUERY = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * drizzle compiles every query it runs anew, which cost about a fifth of the time of an inbound message. The
 * same SQL text reuses its compiled statement instead (the least recently compiled goes first when the cache is
 * full; it is finalized when garbage collected). Safe because drizzle runs each statement to completion at once.
 */
function reuseStatements(client: Database) {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, ReturnType<Database["prepare"]>>();
  client.prepare = ((sql: string, ...rest: unknown[]) => {
    if (rest.length || !QUERY.test(sql)) return prepare(sql, ...(rest as []));
    let statement = cache.get(sql);
    if (statement) return statement;
    statement = prepare(sql);
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  }) as Database["prepare"];
}

/**
 * Runs `work` atomically: in a transaction of its own, or in a savepoint of the one already open. Cheaper than
 * drizzle's `db.transaction`, which builds a whole query API for every transaction, for the writes each inbound
 * message makes.
 */
export function atomically<T>(db: Db, work: (db: Db) => T): T {
  let run = transactionRunners.get(db.$client);
  if (!run) {
    // bun:sqlite builds a transaction function with its statements: one per connection, reused.
    run = db.$client.transaction((job: (db: Db) => unknown, on: Db) => job(on));
    transactionRunners.set(db.$client, run);
  }
  return run(work, db) as T;
}

const transactionRunners = new WeakMap<Database, (job: (db: Db) => unknown, on: Db) => unknown>();

/** Checkpoints the WAL and closes the file. */
export function closeDatabase(db: Db) {
  db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.$client.close();
}
