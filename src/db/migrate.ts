import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { MIGRATIONS_DIR } from "../paths";
import type { Db } from "./client";

/**
 * Applies every pending migration in one transaction (idempotent). SQLite changes a column's constraints by
 * copying the table and dropping the old one; with foreign keys on, that drop deletes every row pointing at
 * it (a contact's tickets and messages). The generated `PRAGMA foreign_keys=OFF` is a no-op inside the
 * migration's transaction, so keys are switched off around it and checked once it is done.
 */
export function runMigrations(db: Db, migrationsFolder = MIGRATIONS_DIR) {
  db.$client.exec("PRAGMA foreign_keys = OFF");
  try {
    migrate(db, { migrationsFolder });
    const broken = db.$client.query("PRAGMA foreign_key_check").all();
    if (broken.length) throw new Error(`migrations left ${broken.length} broken foreign key(s): ${JSON.stringify(broken.slice(0, 5))}`);
  } finally {
    db.$client.exec("PRAGMA foreign_keys = ON");
  }
}
