import type { SQL } from "drizzle-orm";
import { searchSql } from "../../db/search-sql";

/** A search reaches at most this many contacts, the newest first: enough for any page people read. */
export const CONTACT_HITS = 500;

/** The trigram index matches runs of three characters or more: shorter text would match most contacts anyway. */
const MIN_CHARS = 3;

/**
 * Ids of the contacts whose name or number contains `search`, ignoring case and accents, as a select of at most
 * CONTACT_HITS ids; null when `search` is shorter than three characters. It reads the trigram index, kept in step
 * with `contacts` as they are written.
 */
export function contactsMatching(search: string): SQL | null {
  if ([...search.trim()].length < MIN_CHARS) return null;
  return searchSql().contactIdsMatching(search, CONTACT_HITS);
}
