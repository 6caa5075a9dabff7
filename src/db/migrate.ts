import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { MIGRATIONS_DIR } from "../paths";
import type { Db } from "./client";

/** Applies every pending migration in one transaction (idempotent). */
export function runMigrations(db: Db) {
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}

/**
 * Tags of the migrations a database has not applied yet, on a database that already has some applied (a new,
 * empty database has nothing to lose). The migrator applies those newer than the last one recorded.
 */
export function pendingMigrations(db: Db): string[] {
  const journal = join(MIGRATIONS_DIR, "meta", "_journal.json");
  if (!existsSync(journal)) return [];
  const recorded = db.$client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!recorded) return [];
  const last = db.$client.query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null };
  if (last.at == null) return [];
  const entries = (JSON.parse(readFileSync(journal, "utf8")) as { entries: { tag: string; when: number }[] }).entries;
  return entries.filter((e) => e.when > last.at!).map((e) => e.tag);
}
