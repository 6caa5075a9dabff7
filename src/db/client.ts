import { AsyncLocalStorage } from "node:async_hooks";
import { pgArray } from "./pg-array";
import { Database } from "bun:sqlite";
import { QueryPromise, type SQL, entityKind, is, sql as sqlTag } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import { SQLiteAsyncDialect, SQLiteSelectBase } from "drizzle-orm/sqlite-core";
import type { SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { restrictFile } from "../private-files";

/**
 * The database: SQLite (bun:sqlite, each query run when awaited) or PostgreSQL (`usePostgres`), which answers the
 * same queries with the same JavaScript values. Its type is that of drizzle's asynchronous SQLite database;
 * code written against it runs on both as long as it awaits queries (never `.get()`, `.all()` or `.run()`) and
 * keeps dialect-specific SQL behind `dialectOf`.
 */
export type Db = SqliteRemoteDatabase;

/** The database or an open transaction, for reads; a transaction shares the query API. */
export type Reader = Pick<Db, "select">;

/** The database or an open transaction: a write that must be atomic with the caller's takes its transaction. */
export type Writer = Pick<Db, "select" | "insert" | "update" | "delete">;

export type Dialect = "sqlite" | "postgres";

interface SqliteHandle {
  client: Database;
  gate: WriteGate;
}

const sqliteHandles = new WeakMap<object, SqliteHandle>();
const sqliteDialect = new SQLiteAsyncDialect();

/**
 * Opens (or creates) the SQLite database with WAL, foreign keys and a busy timeout. The file is private to the
 * server's user; SQLite gives its -wal and -shm files the database file's mode.
 */
export function openDatabase(path: string): Db {
  const client = new Database(path, { create: true, strict: true });
  if (path !== ":memory:") for (const suffix of ["", "-wal", "-shm"]) restrictFile(path + suffix);
  client.exec("PRAGMA journal_mode = WAL");
  client.exec("PRAGMA synchronous = NORMAL");
  client.exec("PRAGMA foreign_keys = ON");
  client.exec("PRAGMA busy_timeout = 5000");
  reuseStatements(client);
  const gate = new WriteGate();
  // bun:sqlite answers at once: a query runs in the turn it is awaited (see `admitted`), with no round trip.
  const db = drizzleSqlite({ client }) as unknown as Db;
  sqliteHandles.set(db, { client, gate });
  gatesBySession.set((db as unknown as { session: object }).session, gate);
  return db;
}

const gatesBySession = new WeakMap<object, WriteGate>();

/**
 * Every drizzle query on SQLite runs when awaited. One awaited while another async context holds the
 * connection's transaction waits for it to end first (see WriteGate); otherwise it runs at once.
 */
const runQuery = QueryPromise.prototype.then;
function admitted<T, R1, R2>(
  this: QueryPromise<T> & { session?: object },
  onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
  onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
): Promise<R1 | R2> {
  const gate = this.session && gatesBySession.get(this.session);
  if (gate?.blocked()) return gate.ended()!.then(() => this.then(onFulfilled, onRejected)) as Promise<R1 | R2>;
  return runQuery.call(this, onFulfilled, onRejected) as Promise<R1 | R2>;
}
// Selects get a copy of QueryPromise's methods (drizzle's applyMixins) when drizzle loads, before this runs: the
// gate goes on each class that holds a `then` of its own. tests/db-write-gate.test.ts checks every kind of query.
for (const queries of [QueryPromise, SQLiteSelectBase]) {
  // biome-ignore lint/suspicious/noThenProperty: drizzle's queries are thenables; this only adds the wait
  queries.prototype.then = admitted;
}

/** Runs `work` (a prepared SQLite statement) once no other context's transaction holds the connection. */
export async function whenAdmitted<T>(db: object, work: () => T): Promise<T> {
  const gate = sqliteHandles.get(db)?.gate ?? gatesBySession.get((db as { session?: object }).session ?? {});
  while (gate?.blocked()) await gate.ended();
  return work();
}

interface PgTransactionContext {
  tx: PgDatabase<never>;
  done: boolean;
}

const pgTransactions = new AsyncLocalStorage<PgTransactionContext>();
const pgRoots = new WeakMap<object, PgDatabase<never>>();

/**
 * PostgreSQL as the app uses it: a pool where a transaction holds a connection of its own. As on SQLite, every
 * query made in the async context of `atomically` runs in its transaction, whichever handle it was made with
 * (the database or the `tx` given): work inside a transaction never waits for a second connection of the pool,
 * and is never left outside it. Once the transaction ended, late work of its context uses the pool again.
 */
export function usePostgres(pg: object): Db {
  const root = pg as PgDatabase<never>;
  const routed = new Proxy(root, {
    get(target, key) {
      const current = pgTransactions.getStore();
      const handle = current && !current.done ? current.tx : target;
      const value = Reflect.get(handle, key, handle);
      // The driver's client is itself callable: it is handed over as it is.
      return typeof value === "function" && key !== "$client" ? value.bind(handle) : value;
    },
  });
  pgRoots.set(routed, root);
  return routed as unknown as Db;
}

/** The pool under a database `usePostgres` made, whatever transaction is open in this async context. */
export function pgRootOf(db: object): object | undefined {
  return pgRoots.get(db);
}

async function pgAtomically<T>(db: Writer, work: (tx: Db) => Promise<T>): Promise<T> {
  const current = pgTransactions.getStore();
  const outer = current && !current.done ? current.tx : (pgRoots.get(db) ?? (db as unknown as PgDatabase<never>));
  return await outer.transaction(async (tx) => {
    const context = { tx: tx as unknown as PgDatabase<never>, done: false };
    try {
      return await pgTransactions.run(context, () => work(db as Db));
    } finally {
      context.done = true;
    }
  });
}

/**
 * Whether statements sent at once in one transaction travel together (PostgreSQL pipelines them on the
 * transaction's connection) instead of each running alone as it is awaited (SQLite, with no round trip to save).
 */
export function pipelinesStatements(db: object): boolean {
  return dialectOf(db) === "postgres";
}

/** Which engine answers this database or transaction. */
export function dialectOf(db: object): Dialect {
  return isPg(db, "PgDatabase") ? "postgres" : "sqlite";
}

/**
 * drizzle's `is(value, PgClass)`, the class named by its entity kind: a SQLite server never loads pg-core, and
 * a value of its classes exists only once PostgreSQL's client loaded it.
 */
function isPg(value: unknown, kind: "PgDatabase" | "PgTransaction" | "PgSelect"): boolean {
  if (!value || typeof value !== "object") return false;
  for (let cls = Object.getPrototypeOf(value).constructor; cls; cls = Object.getPrototypeOf(cls))
    if (cls[entityKind] === kind) return true;
  return false;
}

/** The SQLite connection under the database, for what only SQLite has (pragmas, backups, FTS5 tables). */
export function sqliteClient(db: object): Database {
  const handle = sqliteHandles.get(db);
  if (!handle) throw new Error("not a SQLite database");
  return handle.client;
}

/** The SQLite connection of a database `openDatabase` opened, found without drizzle's code; else undefined. */
export function ownSqliteClient(db: object): Database | undefined {
  return sqliteHandles.get(db)?.client;
}

/** Whether this runs inside a transaction of `db` (opened by `atomically`). */
export function inTransaction(db: object): boolean {
  if (dialectOf(db) === "postgres") {
    const current = pgTransactions.getStore();
    return isPg(db, "PgTransaction") || (!!current && !current.done);
  }
  return !!sqliteHandles.get(db)?.gate.inside();
}

/** The first row a query returns, if any. A select reads that one row only (`limit 1`). */
export async function first<T>(query: PromiseLike<T[]>): Promise<T | undefined> {
  const select = query as PromiseLike<T[]> & { limit?: (n: number) => PromiseLike<T[]> };
  const rows = await (is(query, SQLiteSelectBase) || isPg(query, "PgSelect") ? select.limit!(1) : query);
  return rows[0];
}

/** The row a query must return (an insert's or update's `returning()`): a missing one is a bug, thrown. */
export async function one<T>(query: PromiseLike<T[]>): Promise<T> {
  const [row] = await query;
  if (row === undefined) throw new Error("expected a row, the query returned none");
  return row;
}

/** An atomic step whose nested atomic blocks share its savepoint (see atomicallyAsOneStep). */
interface OneStep {
  open: boolean;
  /** What a nested block threw, if one did: the step fails with it, whoever caught it. */
  failed?: { error: unknown };
}

const oneSteps = new AsyncLocalStorage<OneStep>();

/**
 * Like `atomically`, but the atomic blocks nested anywhere in `work` run in its transaction or savepoint instead
 * of opening savepoints of their own (on PostgreSQL each is two more round trips). The step stays atomic: when
 * one of them throws, the whole step fails with that error, even if a caller inside `work` caught it.
 */
export async function atomicallyAsOneStep<T>(db: Writer, work: (tx: Db) => Promise<T>): Promise<T> {
  return await atomically(db, async (tx) => await asOneStep(() => work(tx)));
}

/**
 * Runs `work` inside the transaction already open, with no savepoint of its own: the atomic blocks nested in it
 * join the transaction, and it fails when one of them throws, even if caught. Rolling its writes back is the
 * caller's: only the whole transaction can undo them.
 */
export async function asOneStep<T>(work: () => Promise<T>): Promise<T> {
  const step: OneStep = { open: true };
  try {
    const result = await oneSteps.run(step, work);
    if (step.failed) throw step.failed.error;
    return result;
  } finally {
    step.open = false;
  }
}

/** A block nested in an open step: run as part of it, failing the whole step when it throws. */
async function asPartOfStep<T>(step: OneStep, db: Writer, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await work(db as Db);
  } catch (error) {
    step.failed ??= { error };
    throw error;
  }
}

/**
 * Runs `work` atomically and returns what it returns: in a transaction of its own, or in a savepoint of the
 * one already open. Work must run its queries on the `tx` it is given (on PostgreSQL, a connection of its own).
 */
export async function atomically<T>(db: Writer, work: (tx: Db) => Promise<T>): Promise<T> {
  const step = oneSteps.getStore();
  if (step?.open && inTransaction(db)) return await asPartOfStep(step, db, work);
  if (dialectOf(db) === "postgres") return await pgAtomically(db, work);
  const handle = sqliteHandles.get(db);
  if (!handle) throw new Error("not a database opened here");
  return handle.gate.run(handle.client, () => work(db as Db));
}

/**
 * Within a transaction, waits for any other transaction holding `key` until it ends (PostgreSQL's advisory
 * transaction lock): what SQLite's single writer gives every find-or-create, for nodes sharing PostgreSQL.
 */
export async function lockKey(tx: Writer, key: string): Promise<void> {
  if (dialectOf(tx) === "postgres")
    await (tx as unknown as PgDatabase<never>).execute(sqlTag`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** lockKey for each of `keys`, taken in their order, in one statement. */
export async function lockKeys(tx: Writer, keys: readonly string[]): Promise<void> {
  if (dialectOf(tx) !== "postgres" || keys.length === 0) return;
  await (tx as unknown as PgDatabase<never>).execute(
    sqlTag`select pg_advisory_xact_lock(hashtext(key)) from unnest(${pgArray(keys)}::text[]) with ordinality as k(key, n) order by n`,
  );
}

/** Runs a raw statement. */
export async function execute(db: Writer, query: SQL): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await (db as unknown as PgDatabase<never>).execute(query);
    return;
  }
  const { sql, params } = sqliteDialect.sqlToQuery(query);
  await whenAdmitted(db, () =>
    sqliteClient(db)
      .prepare(sql)
      .run(...(params as [])),
  );
}

/** The rows of a raw query, as objects keyed by column name. */
export async function rowsOf<T>(db: Reader, query: SQL): Promise<T[]> {
  if (dialectOf(db) === "postgres") return [...((await (db as unknown as PgDatabase<never>).execute(query)) as T[])];
  const { sql, params } = sqliteDialect.sqlToQuery(query);
  return await whenAdmitted(
    db,
    () =>
      sqliteClient(db)
        .prepare(sql)
        .all(...(params as [])) as T[],
  );
}

/** Checkpoints the WAL and closes the file, or ends PostgreSQL's connections. */
export async function closeDatabase(db: Db) {
  if (dialectOf(db) === "postgres") {
    await (db as unknown as { $client: { close(): Promise<void> } }).$client.close();
    return;
  }
  const client = sqliteClient(db);
  await whenAdmitted(db, () => {
    client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    client.close();
  });
}

/**
 * SQLite has one connection, so a transaction is one at a time and statements from outside it wait until it
 * ends: otherwise they would run inside it, be rolled back with it, or see what it has not committed yet.
 * Statements of the transaction (however deep in its async work) are recognised by their async context.
 */
class WriteGate {
  private readonly context = new AsyncLocalStorage<object>();
  private open: Promise<void> | undefined;
  private depth = 0;

  inside(): boolean {
    return !!this.context.getStore();
  }

  /**
   * Whether a statement must wait (for `ended`) before it runs. Callers loop on it in their own function and
   * run the statement in the same turn it turns false, so no transaction can open in between.
   */
  blocked(): boolean {
    return !!this.open && !this.context.getStore();
  }

  ended(): Promise<void> | undefined {
    return this.open;
  }

  async run<T>(client: Database, work: () => Promise<T>): Promise<T> {
    if (this.context.getStore()) return this.savepoint(client, work);
    while (this.open) await this.open;
    let release!: () => void;
    this.open = new Promise((resolve) => {
      release = resolve;
    });
    try {
      return await this.context.run({}, async () => {
        client.exec("BEGIN");
        try {
          const result = await work();
          client.exec("COMMIT");
          return result;
        } catch (error) {
          client.exec("ROLLBACK");
          throw error;
        }
      });
    } finally {
      this.open = undefined;
      release();
    }
  }

  private async savepoint<T>(client: Database, work: () => Promise<T>): Promise<T> {
    const name = `sp${++this.depth}`;
    client.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      client.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      client.exec(`ROLLBACK TO ${name}`);
      client.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.depth--;
    }
  }
}

/** How many compiled statements one connection keeps; queries with a variable number of parameters vary. */
const STATEMENT_CACHE_SIZE = 500;
/** Only queries are kept: schema changes and pragmas run once. */
const QUERY = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Compiling a query anew costs about a fifth of the time of an inbound message: the same SQL text reuses its
 * compiled statement instead (the least recently compiled goes first when the cache is full; it is finalized
 * when garbage collected). Safe because each statement runs to completion at once.
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
