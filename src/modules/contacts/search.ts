import { type SQL, sql } from "drizzle-orm";
import { onPostgres } from "../../db/tables";

/** A search reaches at most this many contacts, the newest first: enough for any page people read. */
export const CONTACT_HITS = 500;

/** The trigram index matches runs of three characters or more: shorter text would match most contacts anyway. */
const MIN_CHARS = 3;

/**
 * Ids of the contacts whose name or number contains `search`, ignoring case and accents, as a select of at most
 * CONTACT_HITS ids; null when `search` is shorter than three characters. It reads the `contacts_fts` trigram
 * index, kept in step with `contacts` by triggers; the whole text is one phrase, so quotes and operators typed by
 * the user are plain characters.
 */
export function contactsMatching(search: string): SQL | null {
  if ([...search.trim()].length < MIN_CHARS) return null;
  if (onPostgres) {
    // A LIKE pattern over the trigram indexes; the typed text's own wildcards are plain characters.
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // Materialized: the matches come from the trigram indexes first, instead of a walk down the ids that tests
    // every contact until enough match. Names and numbers are looked up apart, so what the number index found
    // is rechecked against the number only; names against their stored folded form (0007_search_columns).
    return sql`with matching as materialized (select id from contacts where name_folded like zapdesk_fold(${pattern}) union select id from contacts where number like ${pattern}) select id from matching order by id desc limit ${CONTACT_HITS}`;
  }
  const phrase = `"${search.replace(/"/g, '""')}"`;
  return sql`select rowid from contacts_fts where contacts_fts match ${phrase} order by rowid desc limit ${CONTACT_HITS}`;
}
