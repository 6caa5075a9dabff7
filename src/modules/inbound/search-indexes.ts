import type { Writer } from "../../db/client";
import { indexNewContacts, indexNewMessages } from "../../db/search-index";

/** Before an inbound batch commits: its new contacts and messages go into their full-text indexes at once. */
export async function indexNewRows(db: Writer) {
  await indexNewContacts(db);
  await indexNewMessages(db);
}
