import { sql } from "drizzle-orm";
import { dialectOf, execute, sqliteClient, type Writer, whenAdmitted } from "./client";

/**
 * Adds the contacts created since the last call to the name and number index, in one statement: each new
 * contact's id waits in `contacts_fts_pending` (a trigger puts it there). The inbound pipeline calls it just
 * before its commit, after its savepoints, so FTS5 writes the new trigrams once per transaction; a search calls
 * it first, so a contact created by any other path is found all the same. Cheap when nothing waits. With
 * `atLeast`, nothing is done while fewer wait (see indexNewRows).
 */
export async function indexNewContacts(db: Writer, atLeast = 1) {
  // PostgreSQL indexes each row as it is written.
  if (dialectOf(db) === "postgres") return;
  if (!(await waiting(db, "contacts_fts_pending", atLeast))) return;
  await execute(
    db,
    sql`INSERT INTO contacts_fts(rowid, name, number) SELECT c.id, c.name, c.number FROM contacts_fts_pending p JOIN contacts c ON c.id = p.id`,
  );
  await execute(db, sql`DELETE FROM contacts_fts_pending`);
}

/**
 * Adds the messages stored since the last call to the full-text index, in one statement: each new message's id
 * waits in `messages_fts_pending` (a trigger puts it there). Writers call it just before they commit, after their
 * savepoints, so FTS5 writes its new terms once per transaction; a search calls it first, so a message stored by
 * a path that did not is found all the same. Cheap when nothing waits. With `atLeast`, nothing is done while fewer
 * wait (see indexNewRows).
 */
export async function indexNewMessages(db: Writer, atLeast = 1) {
  // PostgreSQL indexes each row as it is written.
  if (dialectOf(db) === "postgres") return;
  if (!(await waiting(db, "messages_fts_pending", atLeast))) return;
  await execute(
    db,
    sql`INSERT INTO messages_fts(rowid, body) SELECT m.id, m.body FROM messages_fts_pending p JOIN messages m ON m.id = p.id`,
  );
  await execute(db, sql`DELETE FROM messages_fts_pending`);
}

/**
 * Whether at least `count` ids wait in `pending`: a statement the connection compiles once and keeps (`query`, not
 * `prepare`, which compiles again on every call), as it runs for every batch.
 */
async function waiting(db: Writer, pending: "messages_fts_pending" | "contacts_fts_pending", count: number) {
  return await whenAdmitted(
    db,
    () =>
      sqliteClient(db)
        .query(`SELECT 1 FROM ${pending} LIMIT 1 OFFSET ?`)
        .get(count - 1) !== null,
  );
}
