import { sql } from "drizzle-orm";
import { dialectOf, execute, rowsOf, type Writer } from "../../db/client";

/**
 * Adds the contacts created since the last call to the name and number index, in one statement: each new
 * contact's id waits in `contacts_fts_pending` (a trigger puts it there). The inbound pipeline calls it just
 * before its commit, after its savepoints, so FTS5 writes the new trigrams once per transaction; a search calls
 * it first, so a contact created by any other path is found all the same. Cheap when nothing waits.
 */
export async function indexNewContacts(db: Writer) {
  // PostgreSQL indexes each row as it is written.
  if (dialectOf(db) === "postgres") return;
  if (!(await rowsOf(db, sql`SELECT 1 FROM contacts_fts_pending LIMIT 1`)).length) return;
  await execute(
    db,
    sql`INSERT INTO contacts_fts(rowid, name, number) SELECT c.id, c.name, c.number FROM contacts_fts_pending p JOIN contacts c ON c.id = p.id`,
  );
  await execute(db, sql`DELETE FROM contacts_fts_pending`);
}
