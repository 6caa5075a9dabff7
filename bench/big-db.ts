import { closeDatabase, openDatabase, sqliteClient } from "../src/db/client";
/**
 * A data directory whose database already holds a year of a busy team's work (tickets, their contacts and
 * messages), for the measures that need an existing big database rather than a realistic one (cold start,
 * memory). Plain prepared inserts in one transaction; the schema comes from the app's own migrations.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMigrations } from "../src/db/migrate";

export interface BigDbOptions {
  tickets: number;
  messagesPerTicket: number;
}

/** Creates a temporary DATA_DIR with `zapdesk.sqlite` filled as `opts` says; returns the directory. */
export async function createBigDataDir(opts: BigDbOptions): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-big-"));
  const db = openDatabase(join(dir, "zapdesk.sqlite"));
  runMigrations(db);
  const sql = sqliteClient(db);
  const now = Date.now();
  sql.transaction(() => {
    const conn = sql
      .query("INSERT INTO whatsapps (name, provider, is_default) VALUES ('Bench', 'sandbox', 1) RETURNING id")
      .get() as { id: number };
    const contact = sql.query("INSERT INTO contacts (name, number) VALUES (?, ?) RETURNING id");
    const ticket = sql.query(
      "INSERT INTO tickets (contact_id, whatsapp_id, status, last_message, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    );
    const message = sql.query(
      "INSERT INTO messages (wid, whatsapp_id, ticket_id, contact_id, body, from_me, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < opts.tickets; i++) {
      const at = now - (opts.tickets - i) * 60_000;
      const c = contact.get(`Customer ${i}`, `5511${900000000 + i}`) as { id: number };
      const status = i < opts.tickets * 0.97 ? "closed" : i % 2 ? "open" : "pending";
      const t = ticket.get(c.id, conn.id, status, `message ${i}`, at, at) as { id: number };
      for (let m = 0; m < opts.messagesPerTicket; m++)
        message.run(`B${i}-${m}`, conn.id, t.id, c.id, `hello ${i}, this is message ${m}`, m % 2, at + m);
    }
  })();
  await closeDatabase(db);
  return dir;
}
