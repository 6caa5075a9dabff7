import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { MIGRATIONS_DIR } from "../paths";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { type Db, sqliteClient } from "./client";

/**
 * Applies every pending migration in one transaction (idempotent). SQLite changes a column's constraints by
 * copying the table and dropping the old one; with foreign keys on, that drop deletes every row pointing at
 * it (a contact's tickets and messages). The generated `PRAGMA foreign_keys=OFF` is a no-op inside the
 * migration's transaction, so keys are switched off around it and checked once it is done.
 *
 * A database that already has every migration is left alone: the foreign key check reads every row of every
 * table with a key (about a tenth of a second per million messages), which no start of an up-to-date
 * server should pay.
 */
export function runMigrations(db: Db, migrationsFolder = MIGRATIONS_DIR) {
  const state = migrationState(db, migrationsFolder);
  if (!state.fresh && !state.pending.length) return;
  const client = sqliteClient(db);
  client.exec("PRAGMA foreign_keys = OFF");
  try {
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
  const journal = join(migrationsFolder, "meta", "_journal.json");
  const recorded = sqliteClient(db)
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!recorded) return { fresh: true, pending: [] };
  const last = sqliteClient(db).query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as {
    at: number | null;
  };
  if (last.at == null) return { fresh: true, pending: [] };
  if (!existsSync(journal)) return { fresh: false, pending: [] };
  const entries = (JSON.parse(readFileSync(journal, "utf8")) as { entries: { tag: string; when: number }[] }).entries;
  return { fresh: false, pending: entries.filter((e) => e.when > last.at!).map((e) => e.tag) };
}
