import { SQL } from "bun";
import { closePostgres, openPostgres, postgresOptions, runPgMigrations } from "../src/db/postgres";
import { startPostgres } from "./sql-servers";

/**
 * PostgreSQL for test files: one throwaway cluster for the whole test process, started the first time a test
 * asks for a database and removed when the process ends (also when it is interrupted). Every test gets a
 * database of its own: `freshPgUrl()` copies a template migrated once, which takes milliseconds where running
 * the migrations takes a good part of a second. Test files guard themselves with `hasPostgres`.
 */

type Server = ReturnType<typeof startPostgres>;

const TEMPLATE = "zapdesk_template";

let server: Server | undefined;
let admin: SQL | undefined;
let template: Promise<void> | undefined;
let made = 0;

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
  template ??= migrateTemplate();
  await template;
  return createDatabase(nextName(), `TEMPLATE ${TEMPLATE}`);
}

/** The URL of a new database that has not been migrated, for tests of the migrations themselves. */
export function emptyPgUrl(): Promise<string> {
  return createDatabase(nextName());
}

/** The URL of `database` on the cluster, by TCP. */
export function pgUrlOf(database: string): string {
  const url = new URL(pgServer().url);
  url.pathname = `/${database}`;
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
