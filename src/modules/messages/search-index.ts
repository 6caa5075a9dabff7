import type { Db } from "../../db/client";

/**
 * Adds the messages stored since the last call to the full-text index, in one statement: each new message's id
 * waits in `messages_fts_pending` (a trigger puts it there). Writers call it just before they commit, after their
 * savepoints, so FTS5 writes its new terms once per transaction; a search calls it first, so a message stored by
 * a path that did not is found all the same. Cheap when nothing waits.
 */
export function indexNewMessages(db: Db) {
  const client = db.$client;
  if (!client.query("SELECT 1 FROM messages_fts_pending LIMIT 1").get()) return;
  client
    .query(
      "INSERT INTO messages_fts(rowid, body) SELECT m.id, m.body FROM messages_fts_pending p JOIN messages m ON m.id = p.id",
    )
    .run();
  client.query("DELETE FROM messages_fts_pending").run();
}
