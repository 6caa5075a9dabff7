import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { MIGRATIONS_DIR } from "../paths";
import type { Db } from "./client";

/** Applies every pending migration in one transaction (idempotent). */
export function runMigrations(db: Db) {
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}
