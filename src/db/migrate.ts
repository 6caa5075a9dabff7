import type { Database } from "bun:sqlite";
import { MIGRATIONS_DIR } from "../paths";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { type Db, sqliteClient } from "./client";
import { type AppVersion, journalOf, newestRecorded, refuseNewerSchema, thisBuild } from "./schema-version";

/**
 * Applies every pending migration in one transaction (idempotent). SQLite changes a column's constraints by
 * copying the table and dropping the old one; with foreign keys on, that drop deletes every row pointing at
 * it (a contact's tickets and messages). The generated `PRAGMA foreign_keys=OFF` is a no-op inside the
 * migration's transaction, so keys are switched off around it and checked once it is done.
 *
 * A database that already has every migration is left alone: the foreign key check reads every row of every
 * table with a key (about a tenth of a second per million messages), which no start of an up-to-date
 * server should pay. One a newer Zapdesk migrated is refused. This build's version is recorded in app_versions.
 */
export function runMigrations(db: Db, migrationsFolder = MIGRATIONS_DIR) {
  refuseNewerSqliteSchema(sqliteClient(db), migrationsFolder);
  const state = migrationState(db, migrationsFolder);
  if (state.fresh || state.pending.length) applyMigrations(db, migrationsFolder);
  recordBuild(db, thisBuild(migrationsFolder));
}

function applyMigrations(db: Db, migrationsFolder: string) {
  const client = sqliteClient(db);
  client.exec("PRAGMA foreign_keys = OFF");
  try {
    // Loaded only when there is something to apply: drizzle's migrator brings node:crypto (for its hashes) along.
    const { migrate } = require("drizzle-orm/bun-sqlite/migrator") as typeof import("drizzle-orm/bun-sqlite/migrator");
    migrate(drizzle({ client }), { migrationsFolder });
    const broken = client.query("PRAGMA foreign_key_check").all();
    if (broken.length)
      throw new Error(`migrations left ${broken.length} broken foreign key(s): ${JSON.stringify(broken.slice(0, 5))}`);
  } finally {
    client.exec("PRAGMA foreign_keys = ON");
  }
}

/**
 * Tags of the migrations a database has not applied yet, on a database that already has some applied (a new,
 * empty database has nothing to lose). The migrator applies those newer than the last one recorded.
 */
export function pendingMigrations(db: Db, migrationsFolder = MIGRATIONS_DIR): string[] {
  return migrationState(db, migrationsFolder).pending;
}

/**
 * Whether the database has no migration recorded yet (`fresh`), and else which of the folder's migrations are
 * newer than the last one it recorded: a look at the journal and one indexed row, never at the data.
 */
function migrationState(db: Db, migrationsFolder: string): { fresh: boolean; pending: string[] } {
  if (!hasTable(sqliteClient(db), "__drizzle_migrations")) return { fresh: true, pending: [] };
  const last = sqliteClient(db).query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as {
    at: number | null;
  };
  if (last.at == null) return { fresh: true, pending: [] };
  const pending = journalOf(migrationsFolder)
    .filter((e) => e.when > last.at!)
    .map((e) => e.tag);
  return { fresh: false, pending };
}

/**
 * Refuses a SQLite file (a database, or a backup to restore) that a newer Zapdesk migrated: see
 * `refuseNewerSchema`.
 */
export function refuseNewerSqliteSchema(client: Database, migrationsFolder = MIGRATIONS_DIR) {
  if (!hasTable(client, "__drizzle_migrations")) return;
  const last = client.query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null };
  if (last.at != null) refuseNewerSchema(last.at, migrationsFolder, newestVersion(client));
}

/** The newest version that recorded itself on this database (none before app_versions existed). */
function newestVersion(client: Database): AppVersion | undefined {
  if (!hasTable(client, "app_versions")) return undefined;
  return newestRecorded(client.query("SELECT version, schema FROM app_versions").all() as AppVersion[]);
}

/** Records this build in app_versions (a database migrated only part way, in tests, may not have it yet). */
function recordBuild(db: Db, build: AppVersion) {
  if (!hasTable(sqliteClient(db), "app_versions")) return;
  sqliteClient(db).run(
    `INSERT INTO app_versions (version, schema) VALUES (?, ?)
     ON CONFLICT (version) DO UPDATE SET schema = excluded.schema WHERE schema <> excluded.schema`,
    [build.version, build.schema],
  );
}

/** Whether the SQLite database holds a table of that name. */
export function hasTable(client: Database, name: string): boolean {
  return !!client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}
