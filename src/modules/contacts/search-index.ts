import type { Db } from "../../db/client";

/**
 * Adds the contacts created since the last call to the name and number index, in one statement: each new
 * contact's id waits in `contacts_fts_pending` (a trigger puts it there). The inbound pipeline calls it just
 * before its commit, after its savepoints, so FTS5 writes the new trigrams once per transaction; a search calls
 * it first, so a contact created by any other path is found all the same. Cheap when nothing waits.
 */
export function indexNewContacts(db: Db) {
  const client = db.$client;
  if (!client.query("SELECT 1 FROM contacts_fts_pending LIMIT 1").get()) return;
  client
    .query(
      "INSERT INTO contacts_fts(rowid, name, number) SELECT c.id, c.name, c.number FROM contacts_fts_pending p JOIN contacts c ON c.id = p.id",
    )
    .run();
  client.query("DELETE FROM contacts_fts_pending").run();
}
