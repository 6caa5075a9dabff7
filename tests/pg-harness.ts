import { SQL } from "bun";
import { closePostgres, openPostgres, postgresOptions, runPgMigrations } from "../src/db/postgres";
import { startPostgres } from "./sql-servers";
import { waitFor } from "./wait-for";

/**
 * PostgreSQL for test files: one throwaway cluster for the whole test process, started the first time a test
 * asks for a database and removed when the process ends (also when it is interrupted). `freshPgUrl()` copies a
 * template migrated once (running the migrations takes a good part of a second, a copy 0.1–0.3 s); `testPgUrl()`
 * hands each test the same database again, emptied in a few milliseconds (the suite's test apps). Test files
 * guard themselves with `hasPostgres`.
 */

type Server = ReturnType<typeof startPostgres>;

const TEMPLATE = "zapdesk_template";
const REUSED = "zapdesk_tests";

let server: Server | undefined;
let admin: SQL | undefined;
let template: Promise<void> | undefined;
let made = 0;
let reused: Promise<Reused> | undefined;
let takenByThisTest = false;

/** The cluster, started on first use. */
export function pgServer(): Server {
  if (!server) {
    server = startPostgres();
    stopWhenGone(server, process.pid);
  }
  return server;
}

/** The URL of a new database holding every migration and no rows, shared with no other test. */
export async function freshPgUrl(): Promise<string> {
  return await freshPgUrlNamed(nextName());
}

async function freshPgUrlNamed(name: string): Promise<string> {
  template ??= migrateTemplate();
  await template;
  return createDatabase(name, `TEMPLATE ${TEMPLATE}`);
}

/**
 * The URL of a database holding every migration and no rows for the running test: the first time a test asks,
 * the run's one reused database, emptied of what earlier tests left (a second database in the same test is a
 * fresh copy, as two apps of one test must not share rows unless they name the same `databasePath`). Each test
 * connects as a role of its own: the role of the test before loses its login and its sessions first, so a pool
 * an earlier test left open cannot write into this one's rows, nor hold a lock or a `LISTEN` across tests.
 */
export async function testPgUrl(): Promise<string> {
  if (takenByThisTest) return await freshPgUrl();
  takenByThisTest = true;
  reused ??= Reused.open();
  return await (await reused).handOver();
}

/** The running test ended (a hook of the suite's PostgreSQL run): the next `testPgUrl()` empties the database again. */
export function testEnded() {
  takenByThisTest = false;
}

/**
 * The URL of a new database that has not been migrated, for tests of the migrations themselves; in `encoding`
 * (SQL_ASCII, LATIN1, ...) instead of the cluster's UTF8 when given.
 */
export function emptyPgUrl(encoding?: string): Promise<string> {
  return createDatabase(
    nextName(),
    encoding ? `ENCODING '${encoding}' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0` : "",
  );
}

/** The URL of `database` on the cluster, by TCP, as `user` (the cluster's superuser unless given). */
export function pgUrlOf(database: string, user?: string): string {
  const url = new URL(pgServer().url);
  url.pathname = `/${database}`;
  if (user) url.username = user;
  return url.toString();
}

function nextName() {
  return `test_${++made}`;
}

async function createDatabase(name: string, clause = ""): Promise<string> {
  admin ??= new SQL({ ...postgresOptions(pgServer().url), max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name} ${clause}`);
  return pgUrlOf(name);
}

/**
 * The reused database, with a connection of the cluster's superuser kept on it to empty it (`handOver`). A
 * schema change made by a test (one drops a table to make writes fail) is noted by an event trigger, and the
 * database is then made again from the template instead of emptied.
 */
class Reused {
  private testers = 0;
  private tester: string | undefined;

  private constructor(private sql: SQL) {}

  static async open(): Promise<Reused> {
    return new Reused(await openReusedDatabase());
  }

  /** The database for the next test, as a role of its own, once the role of the test before is shut out. */
  async handOver(): Promise<string> {
    if (this.tester) {
      await this.sql.unsafe(`ALTER ROLE ${this.tester} NOLOGIN`);
      await endSessionsOf(this.sql, this.tester);
      if (await schemaChanged(this.sql)) this.sql = await replaceReusedDatabase(this.sql);
      else await emptyTables(this.sql);
    }
    this.tester = `tester_${++this.testers}`;
    await this.sql.unsafe(`CREATE ROLE ${this.tester} LOGIN SUPERUSER`);
    return pgUrlOf(REUSED, this.tester);
  }
}

async function openReusedDatabase(): Promise<SQL> {
  const sql = new SQL({ ...postgresOptions(await freshPgUrlNamed(REUSED)), max: 1 });
  await sql.unsafe(`CREATE SCHEMA harness;
    CREATE TABLE harness.schema_changes (tag text);
    CREATE FUNCTION harness.note_schema_change() RETURNS event_trigger LANGUAGE plpgsql AS
      $$ BEGIN INSERT INTO harness.schema_changes VALUES (tg_tag); END $$;
    CREATE EVENT TRIGGER note_schema_change ON ddl_command_end EXECUTE FUNCTION harness.note_schema_change()`);
  return sql;
}

async function replaceReusedDatabase(sql: SQL): Promise<SQL> {
  await sql.close();
  await admin!.unsafe(`DROP DATABASE ${REUSED} WITH (FORCE)`);
  return await openReusedDatabase();
}

async function schemaChanged(sql: SQL): Promise<boolean> {
  const [row] = (await sql`SELECT EXISTS (SELECT FROM harness.schema_changes) AS yes`) as { yes: boolean }[];
  return row!.yes;
}

/**
 * Every row deleted (with foreign keys unchecked, so in any order) and every id sequence back to 1, as on a
 * fresh copy. Deleting from ~40 nearly empty tables takes about a millisecond where TRUNCATE takes ~80 ms; the
 * migrations insert no rows (each app seeds the settings as it starts).
 */
async function emptyTables(sql: SQL) {
  const tables = (await sql`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
    WHERE schemaname = 'public'`) as { name: string }[];
  const deletes = tables.map(({ name }) => `DELETE FROM ${name};`).join(" ");
  await sql.unsafe(`SET session_replication_role = replica; ${deletes} SET session_replication_role = DEFAULT`);
  await sql`SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S' AND relnamespace = 'public'::regnamespace`;
}

/**
 * Ends every session of `role` and waits until none is left, so nothing it had under way commits after the
 * tables are emptied. Polled here: `pg_terminate_backend`'s own wait looks every 100 ms.
 */
async function endSessionsOf(sql: SQL, role: string) {
  await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ${role}`;
  await waitFor(async () => {
    const [left] = (await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = ${role}`) as {
      n: number;
    }[];
    return left!.n === 0;
  });
}

/** A template accepts no copies while someone is connected to it: it is closed once migrated. */
async function migrateTemplate() {
  const db = openPostgres(await createDatabase(TEMPLATE));
  try {
    await runPgMigrations(db);
  } finally {
    await closePostgres(db);
  }
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * Stops and removes the cluster once process `pid` is gone, however it ends: `bun test` exits without an
 * `exit` event, and an interrupted or killed run gets no say at all. A shell of its own session watches the
 * process, so the Ctrl-C that ends the tests does not end the watch.
 */
function stopWhenGone(cluster: Server, pid: number) {
  const { command, dir } = cluster.cleanup;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 0.2; done; ${command.map(quote).join(" ")} >/dev/null 2>&1; rm -rf ${quote(dir)}`;
  // setsid forks the watch off and returns at once: `bun test` ends the processes a test started when it times out.
  Bun.spawnSync(["setsid", "--fork", "sh", "-c", script], { stdio: ["ignore", "ignore", "ignore"] });
}
