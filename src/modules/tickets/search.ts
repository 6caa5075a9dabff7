import { type SQL, sql } from "drizzle-orm";
import { tickets } from "../../db/tables";
import { contactsMatching } from "../contacts/search";
import { ticketsWithMatchingMessages } from "../messages/search";

/**
 * The ticket search tab: ids of the tickets whose contact's name or number contains `search`, or with a message
 * whose words start with the words of `search`, as one select (names and numbers need three characters, words
 * two). The one place that knows how the search is stored: FTS5 indexes on SQLite, a tsvector index and trigram
 * indexes on PostgreSQL, which answer with the same ids.
 *
 * Both sides read their index newest first and stop after a bounded number of hits, then meet as one set of
 * ticket ids, so the list looks those tickets up by id instead of testing every ticket against the messages.
 */
export function ticketSearch(search: string): SQL {
  const contacts = contactsMatching(search);
  const byContact = contacts && sql`select ${tickets.id} from ${tickets} where ${tickets.contactId} in (${contacts})`;
  const byMessage = ticketsWithMatchingMessages(search);
  if (byContact && byMessage) return sql`${byContact} union ${byMessage}`;
  // Nothing to look up (a single letter, punctuation): no ticket.
  return byContact ?? byMessage ?? sql`select 0 where 1 = 0`;
}
