import { existsSync } from "node:fs";
import type { SQL } from "bun";
import { type Column, getTableColumns, is, sql, type Table } from "drizzle-orm";
import { getTableConfig as pgConfig, type PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Config } from "../config";
import { closeDatabase, type Db, openDatabase, sqliteClient } from "../db/client";
import { runMigrations } from "../db/migrate";
import * as pgSchema from "../db/pg-schema";
import { closePostgres, openPostgres, type PgDb, runPgMigrations } from "../db/postgres";
import * as sqliteSchema from "../db/schema";

export interface TableCount {
  table: string;
  /** Rows in the SQLite database. */
  source: number;
  /** Rows in PostgreSQL after the copy, counted in the copy's transaction. */
  target: number;
}

export interface MigrationReport {
  tables: TableCount[];
  /** Every table has as many rows in PostgreSQL as in SQLite; otherwise nothing was kept there. */
  ok: boolean;
  ms: number;
}

type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** A table in both dialects, under the name both schemas export it by. */
interface Pair {
  name: string;
  sqlName: string;
  sqlite: SQLiteTable;
  pg: PgTable;
}

/** Rows per INSERT stay under PostgreSQL's 65 535 parameters whatever the table's width. */
const MAX_PARAMS = 30_000;
const MAX_ROWS = 1_000;

/** Thrown inside the copy's transaction so a copy whose counts differ is rolled back. */
class CountMismatch extends Error {
  constructor(readonly tables: TableCount[]) {
    super("row counts differ");
  }
}

/**
 * Copies this installation's SQLite database into an empty PostgreSQL database: creates the tables (the
 * PostgreSQL migrations), copies every table in foreign-key order keeping ids, moves each id sequence past the
 * highest copied id and compares the row counts of every table, all in one transaction: a copy that fails or
 * whose counts differ leaves nothing behind. The server must be stopped: rows it writes meanwhile are not copied.
 */
export async function migrateToPostgres(
  config: Pick<Config, "databasePath">,
  url: string,
  opts: { onTable?: (table: string) => void } = {},
): Promise<MigrationReport> {
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new Error("--to must be a postgres:// URL");
  if (!existsSync(config.databasePath)) throw new Error(`no database at ${config.databasePath}`);
  const started = performance.now();
  const pg = openPostgres(url);
  const sqlite = openDatabase(config.databasePath);
  try {
    const pairs = inForeignKeyOrder(tablePairs());
    await refuseFilledTarget(pg.$client, pairs);
    runMigrations(sqlite);
    await runPgMigrations(pg);
    // One read transaction: every table is read from the same snapshot of the SQLite file.
    sqliteClient(sqlite).exec("BEGIN");
    try {
      const tables = await pg.transaction(async (tx) => {
        const counts: TableCount[] = [];
        for (const pair of pairs) {
          opts.onTable?.(pair.sqlName);
          try {
            await copyTable(sqlite, tx, pair);
            await advanceSequences(tx, pair);
          } catch (error) {
            // The driver's own words, not drizzle's wrapper that repeats the whole statement and its values.
            const cause = (error as Error).cause instanceof Error ? (error as Error).cause : error;
            throw new Error(`copying ${pair.sqlName}: ${(cause as Error).message}; PostgreSQL keeps none of the copy`);
          }
          counts.push({ table: pair.sqlName, source: sqliteCount(sqlite, pair), target: await pgCount(tx, pair) });
        }
        await recountTicketMessages(tx);
        if (counts.some((c) => c.source !== c.target)) throw new CountMismatch(counts);
        return counts;
      });
      return { tables, ok: true, ms: performance.now() - started };
    } catch (error) {
      if (error instanceof CountMismatch) return { tables: error.tables, ok: false, ms: performance.now() - started };
      throw error;
    } finally {
      sqliteClient(sqlite).exec("COMMIT");
    }
  } finally {
    await closeDatabase(sqlite);
    await closePostgres(pg);
  }
}

/**
 * Each ticket's message count as its copied messages make it: the database's triggers added every copied message
 * to the count copied with its ticket.
 */
async function recountTicketMessages(tx: PgTx) {
  await tx.execute(
    sql`UPDATE tickets SET message_count = coalesce((SELECT count(*) FROM messages WHERE messages.ticket_id = tickets.id), 0)`,
  );
}

function tablePairs(): Pair[] {
  const pgTables = pgSchema as unknown as Record<string, PgTable>;
  return (Object.entries(sqliteSchema) as [string, unknown][])
    .filter((entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable))
    .map(([name, table]) => {
      const pg = pgTables[name];
      if (!pg) throw new Error(`the PostgreSQL schema has no table ${name}`);
      return { name, sqlName: sqliteConfig(table).name, sqlite: table, pg };
    });
}

/** Referenced tables before the tables that point at them (a table pointing at itself is copied in two passes). */
function inForeignKeyOrder(pairs: Pair[]): Pair[] {
  const bySqlName = new Map(pairs.map((p) => [p.sqlName, p]));
  const ordered: Pair[] = [];
  const placed = new Set<string>();
  const place = (pair: Pair, path: string[]) => {
    if (placed.has(pair.sqlName)) return;
    if (path.includes(pair.sqlName)) throw new Error(`foreign keys form a circle: ${[...path, pair.sqlName]}`);
    for (const target of referencedTables(pair.sqlite))
      if (target !== pair.sqlName) place(bySqlName.get(target)!, [...path, pair.sqlName]);
    placed.add(pair.sqlName);
    ordered.push(pair);
  };
  for (const pair of pairs) place(pair, []);
  return ordered;
}

function referencedTables(table: SQLiteTable): string[] {
  return sqliteConfig(table).foreignKeys.map((fk) => sqliteConfig(fk.reference().foreignTable).name);
}

/** Nothing is copied over an installation: a target whose Zapdesk tables hold rows is refused. */
async function refuseFilledTarget(client: SQL, pairs: Pair[]) {
  const present = (await client`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_name IN ${client(pairs.map((p) => p.sqlName))}`) as {
    name: string;
  }[];
  const filled: string[] = [];
  for (const { name } of present) {
    const [row] = (await client.unsafe(`SELECT count(*)::int AS n FROM "${name}"`)) as { n: number }[];
    if (row!.n > 0) filled.push(`${name} (${row!.n})`);
  }
  if (filled.length)
    throw new Error(
      `the target database already holds Zapdesk data: ${filled.join(", ")}; migrate into an empty database`,
    );
}

/**
 * Copies a table's rows in rowid order and in batches, each value read through the SQLite column's mapping
 * (0/1 → boolean, epoch ms → Date, blob → Buffer) and written through the PostgreSQL column's. A row pointing
 * at a row of its own table not copied yet (a chatbot option listed before its parent) is written without that
 * link, which is set once the whole table is in.
 */
async function copyTable(sqlite: Db, tx: PgTx, pair: Pair) {
  const columns = Object.entries(getTableColumns(pair.sqlite)) as [string, Column][];
  const selfLinks = selfReferences(pair.sqlite);
  const copiedIds = new Set<unknown>();
  const links: { id: unknown; column: string; value: unknown }[] = [];
  const batch = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
  const read = sqliteClient(sqlite).query(
    `SELECT rowid AS "__rowid", * FROM "${pair.sqlName}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  for (let last = Number.MIN_SAFE_INTEGER; ; ) {
    const raw = read.all(last, batch) as Record<string, unknown>[];
    if (raw.length === 0) break;
    last = raw[raw.length - 1]!.__rowid as number;
    const rows = raw.map((source) => {
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = source[column.name];
        row[key] = value == null ? null : column.mapFromDriverValue(value);
      }
      for (const link of selfLinks) {
        const value = row[link.key];
        if (value != null && !copiedIds.has(value)) {
          links.push({ id: row.id, column: link.column, value });
          row[link.key] = null;
        }
      }
      if (selfLinks.length) copiedIds.add(row.id);
      return row;
    });
    await tx.insert(pair.pg).values(rows);
  }
  // Raw SQL, not drizzle's update: that would also stamp updated_at with the time of the copy.
  for (const link of links)
    await tx.execute(sql`UPDATE ${pair.pg} SET ${sql.identifier(link.column)} = ${link.value} WHERE "id" = ${link.id}`);
}

/** The columns of a table that point at its own `id` (a message's quote, a chatbot option's parent). */
function selfReferences(table: SQLiteTable): { key: string; column: string }[] {
  const keyOf = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, key]));
  return sqliteConfig(table)
    .foreignKeys.map((fk) => fk.reference())
    .filter((ref) => ref.foreignTable === (table as Table) && ref.columns.length === 1)
    .map((ref) => ({ key: keyOf.get(ref.columns[0]!.name)!, column: ref.columns[0]!.name }));
}

/** The next id PostgreSQL hands out follows the highest copied one. */
async function advanceSequences(tx: PgTx, pair: Pair) {
  for (const column of pgConfig(pair.pg).columns.filter((c) => c.generatedIdentity)) {
    const id = sql.identifier(column.name);
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence(${`"${pair.sqlName}"`}, ${column.name}), coalesce(max(${id}), 0) + 1, false) FROM ${pair.pg}`,
    );
  }
}

function sqliteCount(sqlite: Db, pair: Pair): number {
  return (sqliteClient(sqlite).query(`SELECT count(*) AS n FROM "${pair.sqlName}"`).get() as { n: number }).n;
}

async function pgCount(tx: PgTx, pair: Pair): Promise<number> {
  const rows = (await tx.execute(sql`SELECT count(*)::int AS n FROM ${pair.pg}`)) as unknown as { n: number }[];
  return rows[0]!.n;
}
