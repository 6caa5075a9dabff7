import type { Writer } from "../../db/client";
import { indexNewContacts } from "../contacts/search-index";
import { indexNewMessages } from "../messages/search-index";

/** Before an inbound batch commits: its new contacts and messages go into their full-text indexes at once. */
export async function indexNewRows(db: Writer) {
  await indexNewContacts(db);
  await indexNewMessages(db);
}
