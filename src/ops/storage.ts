import { join } from "node:path";
import type { Config } from "../config";
import { type Db, openDatabase } from "../db/client";
import { pendingMigrations, runMigrations } from "../db/migrate";
import { useEngine } from "../db/tables";
import type { Logger } from "../log";
import { backupsDir } from "./backups-dir";
import { snapshot } from "./backup";

type StorageConfig = Pick<Config, "databasePath" | "dataDir"> & Partial<Pick<Config, "databaseUrl">>;

/**
 * The migrated database: PostgreSQL when `DATABASE_URL` names one (shared by every node), else SQLite under
 * DATA_DIR, backed up before an upgrade changes its schema. The server and the commands that write open it so;
 * this is where the process's engine is chosen (`useEngine`): every query from then on uses that engine's tables.
 */
export async function openStorage(config: StorageConfig, log: Pick<Logger, "info">): Promise<Db> {
  useEngine(config.databaseUrl ? "postgres" : "sqlite");
  // PostgreSQL's client and tables are loaded only for it: a SQLite server never builds them.
  if (config.databaseUrl) return await (await import("../db/postgres")).openMigratedPostgres(config.databaseUrl);
  const db = openDatabase(config.databasePath);
  backupBeforeMigrations(db, config, log);
  runMigrations(db);
  return db;
}

/** Before an upgrade changes the schema, the database as it was goes to DATA_DIR/backups (never on a new one). */
function backupBeforeMigrations(db: Db, config: StorageConfig, log: Pick<Logger, "info">) {
  if (config.databasePath === ":memory:") return;
  const pending = pendingMigrations(db);
  if (!pending.length) return;
  const out = join(backupsDir(config), `pre-migration-${new Date().toISOString().replace(/[:.]/g, "-")}.sqlite`);
  snapshot(config.databasePath, out);
  log.info("database backed up before migrating", { file: out, migrations: pending });
}
