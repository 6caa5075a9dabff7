import { and, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client";
import { amongIds } from "../../db/index-hints";
import { searchSql } from "../../db/search-sql";
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
 * Contacts have a bound of each engine's (broadContacts).
 */
export const BROAD_SEARCH_HITS = 5_000;

/** Which side of a search is broad: its messages, its contacts (see BROAD_SEARCH_HITS). */
export interface SearchBreadth {
  messages: boolean;
  contacts: boolean;
}

/**
 * Whether `search` matches more than BROAD_SEARCH_HITS messages (on PostgreSQL: as many in proportion among the
 * newest, see manyMatches) or more contacts than the engine's broadContacts.
 */
export async function searchBreadth(db: Db, search: string): Promise<SearchBreadth> {
  const manyContacts = searchSql().broadContacts;
  const [messages, contactsFound] = await Promise.all([
    matchesManyMessages(db, search, BROAD_SEARCH_HITS),
    countMatchingContacts(db, search, manyContacts + 1),
  ]);
  return { messages, contacts: contactsFound > manyContacts };
}

/** Whether a list searching `search` is walked rather than read as a set (either side broad, see searchBreadth). */
export async function broadSearch(db: Db, search: string): Promise<boolean> {
  const breadth = await searchBreadth(db, search);
  return breadth.messages || breadth.contacts;
}

/**
 * Which tickets match `search` among stretches of tickets a walk meets (contact or message, as `ticketSearch`). A
 * side that is not broad is read once as a set and each stretch checked against it; a broad one is checked on the
 * stretch's tickets.
 */
export async function matcherAmong(
  db: Db,
  search: string,
  breadth: SearchBreadth,
): Promise<(ticketIds: number[]) => Promise<Set<number>>> {
  const rareMessages = breadth.messages ? undefined : await ticketIdsMatchingMessages(db, search);
  const contactMatches = contactMatchesSearch(tickets.contactId, search);
  return async (ticketIds) => {
    if (!ticketIds.length) return new Set();
    const [byMessage, byContact] = await Promise.all([
      rareMessages ? ticketIds.filter((id) => rareMessages.has(id)) : ticketsWithMatchesAmong(db, ticketIds, search),
      contactMatches
        ? db
            .select({ id: tickets.id })
            .from(tickets)
            .where(and(amongIds(tickets.id, ticketIds), contactMatches))
        : [],
    ]);
    return new Set([...byMessage, ...byContact.map((t) => t.id)]);
  };
}

/** The ids of every ticket with a message matching `search` (a search with few such messages). */
async function ticketIdsMatchingMessages(db: Db, search: string): Promise<Set<number>> {
  const byMessage = ticketsWithMatchingMessages(search);
  if (!byMessage) return new Set();
  return new Set((await rowsOf<{ ticket_id: number }>(db, byMessage)).map((r) => Number(r.ticket_id)));
}
