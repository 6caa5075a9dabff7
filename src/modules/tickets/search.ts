import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/tables";
import { contactMatchesSearch, contactsMatching, countMatchingContacts } from "../contacts/search";
import { matchesManyMessages, ticketsWithMatchesAmong, ticketsWithMatchingMessages } from "../messages/search";

/**
 * The ticket search tab: ids of the tickets whose contact's name or number contains `search`, or with a message
 * whose words start with the words of `search`, as one select (names and numbers need three characters, words
 * two). The one place that knows how the search is stored: FTS5 indexes on SQLite, a tsvector index and trigram
 * indexes on PostgreSQL, which answer with the same ids.
 *
 * Every hit is in the select, so the list looks those tickets up by id instead of testing every ticket against
 * the messages; that is the way for a search with few hits (`broadSearch` says which are not).
 */
export function ticketSearch(search: string): SQL {
  const contacts = contactsMatching(search);
  const byContact = contacts && sql`select ${tickets.id} from ${tickets} where ${tickets.contactId} in (${contacts})`;
  const byMessage = ticketsWithMatchingMessages(search);
  if (byContact && byMessage) return sql`${byContact} union ${byMessage}`;
  // Nothing to look up (a single letter, punctuation): no ticket.
  return byContact ?? byMessage ?? sql`select 0 where 1 = 0`;
}

/**
 * A search matching more messages or contacts than this is broad: rather than reading all its hits for each page,
 * the list is walked in page order and each stretch of tickets checked at once (`ticketsMatchingAmong`). Reading a
 * hit as part of a set costs a few microseconds, checking a ticket about ten; a page of 40 then costs about the
 * same both ways when a word is in this many messages of a 100,000-ticket inbox (and less either side of it).
 */
export const BROAD_SEARCH_HITS = 5_000;

/**
 * Whether `search` matches more than BROAD_SEARCH_HITS messages (on PostgreSQL: as many in proportion among the
 * newest, see manyMatches) or contacts.
 */
export async function broadSearch(db: Db, search: string): Promise<boolean> {
  const [manyMessages, contactsFound] = await Promise.all([
    matchesManyMessages(db, search, BROAD_SEARCH_HITS),
    countMatchingContacts(db, search, BROAD_SEARCH_HITS + 1),
  ]);
  return manyMessages || contactsFound > BROAD_SEARCH_HITS;
}

/** Which of `ticketIds` match `search` (contact or message, as `ticketSearch`). */
export async function ticketsMatchingAmong(db: Db, ticketIds: number[], search: string): Promise<Set<number>> {
  if (!ticketIds.length) return new Set();
  const contactMatches = contactMatchesSearch(tickets.contactId, search);
  const [byMessage, byContact] = await Promise.all([
    ticketsWithMatchesAmong(db, ticketIds, search),
    contactMatches
      ? db
          .select({ id: tickets.id })
          .from(tickets)
          .where(and(inArray(tickets.id, ticketIds), contactMatches))
      : [],
  ]);
  return new Set([...byMessage, ...byContact.map((t) => t.id)]);
}
