import type { Writer } from "../../db/client";
import { indexNewContacts, indexNewMessages } from "../../db/search-index";

/**
 * How many new contacts or messages wait before an inbound batch indexes them. FTS5 writes an index segment in
 * each transaction that adds to it, and merges the segments as they pile up: a WhatsApp connection hands its
 * messages over one at a time, so its batches hold one or two, and each paid that. Rows left waiting are found by
 * every search all the same: it indexes them first.
 */
const INDEX_WHEN_WAITING = 64;

/** Before an inbound batch commits: the new contacts and messages waiting go into their full-text indexes at once. */
export async function indexNewRows(db: Writer) {
  await indexNewContacts(db, INDEX_WHEN_WAITING);
  await indexNewMessages(db, INDEX_WHEN_WAITING);
}
