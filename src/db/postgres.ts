import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { StartupError } from "../errors";
import { PG_MIGRATIONS_DIR } from "../paths";
import { type Db, usePostgres } from "./client";
import { type AppVersion, newestMigration, newestRecorded, refuseNewerSchema, thisBuild } from "./schema-version";
import * as pgSchema from "./pg-schema";

export type PgDb = ReturnType<typeof drizzle<typeof pgSchema, SQL>>;

/** Connections each node keeps open when the URL does not say (`?max=`). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * One key for every Zapdesk node on a database: the node holding it migrates, the others wait for it. Any
 * fixed number works as long as nothing else on the database takes the same advisory lock.
 */
export const MIGRATION_LOCK = 7_243_019_551;

/** Where drizzle records the migrations it applied (its defaults, which db/migrations-pg was made for). */
const JOURNAL_TABLE = "drizzle.__drizzle_migrations";

/**
 * How Bun's client is told to reach the database in `url`: `postgres://user:pass@host:port/db`, or a unix
 * socket as `postgres://user@/db?host=/var/run/postgresql` (Bun reads `?host=` itself). The database is
 * passed on its own because Bun would let a `PGDATABASE` in the environment win over the URL's.
 */
export function postgresOptions(url: string): { url: string; database?: string; max: number; idleTimeout?: number } {
  const match = /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?[^/?#]*(\/[^?#]*)?(\?[^#]*)?/i.exec(url);
  if (!match) throw new Error("DATABASE_URL must be a postgres:// or postgresql:// URL");
  const database = decodeURIComponent((match[1] ?? "").slice(1)) || undefined;
  const max = new URLSearchParams(match[2] ?? "").get("max");
  if (max != null && !/^[1-9]\d*$/.test(max))
    throw new Error(`?max= in DATABASE_URL must be a whole number, not ${max}`);
  const idle = new URLSearchParams(match[2] ?? "").get("idle_timeout");
  return {
    url,
    database,
    max: max == null ? DEFAULT_POOL_SIZE : Number(max),
    ...(idle && /^\d+$/.test(idle) ? { idleTimeout: Number(idle) } : {}),
  };
}

/** A pool of connections to the PostgreSQL database at `url`, with drizzle's PostgreSQL query builders. */
export function openPostgres(url: string): PgDb {
  // Without the schema: drizzle would build a relational query builder per table for every transaction it
  // opens (about 2 % of an inbound message's CPU), for an API (`db.query`) this app does not use.
  return drizzle({ client: new SQL(postgresOptions(url)) }) as unknown as PgDb;
}

/**
 * The database at `url`, migrated, as the app's data access sees it (servers and commands open it so), with this
 * build recorded in app_versions.
 */
export async function openMigratedPostgres(url: string): Promise<Db> {
  const pg = openPostgres(url);
  await runPgMigrations(pg).catch((error) => {
    throw unreachable(error, url) ?? error;
  });
  const build = thisBuild(PG_MIGRATIONS_DIR);
  await pg.$client`INSERT INTO app_versions (version, schema) VALUES (${build.version}, ${build.schema})
    ON CONFLICT (version) DO UPDATE SET schema = excluded.schema WHERE app_versions.schema <> excluded.schema`;
  return usePostgres(pg);
}

/** Bun's codes for a server it could not reach (refused, no such host or socket, no answer in time). */
const UNREACHABLE = new Set([
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
]);

/** A start that could not reach the server, said in one line naming where it looked (never the password). */
function unreachable(error: unknown, url: string): StartupError | undefined {
  if (!UNREACHABLE.has((error as { code?: string }).code ?? "")) return undefined;
  return new StartupError(
    `cannot reach PostgreSQL at ${postgresAddress(url)} (DATABASE_URL): ${(error as Error).message}; check that it runs and accepts connections from this machine`,
  );
}

/**
 * Where `url` reaches the server, as `host:port` (`[::1]:5432`), or the socket file of a `?host=/dir` URL;
 * what a log may show of it (no user, password or database).
 */
export function postgresAddress(url: string): string {
  const match = /^postgres(?:ql)?:\/\/(?:[^/?#]*@)?([^/?#]*)[^?#]*(?:\?([^#]*))?/i.exec(url);
  const query = new URLSearchParams(match?.[2] ?? "");
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(match?.[1] ?? "");
  const host = hostPort?.[1] || query.get("host") || "localhost";
  const port = hostPort?.[2] || query.get("port") || "5432";
  return host.startsWith("/") ? `${host}/.s.PGSQL.${port}` : `${host}:${port}`;
}

/** Waits for running queries, then closes every connection of the pool. */
export async function closePostgres(db: PgDb) {
  await db.$client.close();
}

/**
 * Applies every pending migration of db/migrations-pg in one transaction (idempotent). Nodes starting together
 * take turns on one connection each holding a session advisory lock, so the second finds the work done instead
 * of creating the same tables again. A database that already has the newest migration is left at a few reads,
 * without the lock: nodes restarting beside a running one never queue behind it. One a newer Zapdesk migrated
 * is refused, and so is one whose encoding is not UTF8.
 */
export async function runPgMigrations(db: PgDb, migrationsFolder = PG_MIGRATIONS_DIR) {
  await refuseOtherEncodings(db.$client);
  const newest = newestMigration(migrationsFolder)?.when;
  const last = await lastApplied(db.$client);
  if (newest != null && last > newest) refuseNewerSchema(last, migrationsFolder, await newestVersion(db.$client));
  if (newest != null && last >= newest) return;
  // A session lock belongs to one connection: the lock, the migration and the unlock all run on it.
  const connection = await db.$client.reserve();
  try {
    await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      // Loaded only when there is something to apply: drizzle's migrator brings node:crypto along.
      const { migrate } = await import("drizzle-orm/bun-sql/migrator");
      await migrate(drizzle({ client: connection, schema: pgSchema }), { migrationsFolder });
    } finally {
      await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    connection.release();
  }
}

/**
 * Zapdesk stores what WhatsApp carries (emoji, any script, the mark its automatic messages start with) and
 * searches it by letters: a database of another encoding cannot hold all of it (LATIN1 has no emoji), and one of
 * SQL_ASCII holds the bytes but takes each byte for a character, so accents defeat search and a cut text is no
 * longer UTF-8. Refused before anything is written, saying how to make one that works.
 */
async function refuseOtherEncodings(client: SQL) {
  const [row] = (await client`SELECT current_database() AS name, current_setting('server_encoding') AS encoding`) as {
    name: string;
    encoding: string;
  }[];
  if (row!.encoding === "UTF8") return;
  throw new StartupError(
    `the PostgreSQL database ${row!.name} uses the encoding ${row!.encoding}; Zapdesk needs UTF8: create it with createdb -E UTF8 -T template0 ${row!.name} (or move its data into such a database with pg_dump and pg_restore)`,
  );
}

/** The newest version that recorded itself on this database (none before app_versions existed). */
async function newestVersion(client: SQL): Promise<AppVersion | undefined> {
  const [exists] = (await client`SELECT to_regclass('app_versions') IS NOT NULL AS yes`) as { yes: boolean }[];
  if (!exists!.yes) return undefined;
  return newestRecorded((await client`SELECT version, schema FROM app_versions`) as AppVersion[]);
}

/** The `when` of the newest migration the database recorded, -1 on a database never migrated. */
async function lastApplied(client: SQL): Promise<number> {
  const [exists] = (await client`SELECT to_regclass(${JOURNAL_TABLE}) IS NOT NULL AS yes`) as { yes: boolean }[];
  if (!exists!.yes) return -1;
  const [row] = (await client.unsafe(`SELECT max(created_at)::float8 AS at FROM ${JOURNAL_TABLE}`)) as {
    at: number | null;
  }[];
  return row!.at ?? -1;
}
