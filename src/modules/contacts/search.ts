import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client";
import { searchSql } from "../../db/search-sql";

/** The trigram index matches runs of three characters or more: shorter text would match most contacts anyway. */
const MIN_CHARS = 3;

/**
 * Ids of the contacts whose name or number contains `search`, ignoring case and accents, as a select of at most
 * `limit` ids, the newest first (every one without a limit); null when `search` is shorter than three characters.
 * It reads the trigram index, kept in step with `contacts` as they are written.
 */
export function contactsMatching(search: string, limit = Number.MAX_SAFE_INTEGER): SQL | null {
  if ([...search.trim()].length < MIN_CHARS) return null;
  return searchSql().contactIdsMatching(search, limit);
}

/** That the contact `contactId` names has a name or number containing `search`, as a condition; null as above. */
export function contactMatchesSearch(contactId: SQLWrapper, search: string): SQL | null {
  if ([...search.trim()].length < MIN_CHARS) return null;
  return searchSql().contactMatches(contactId, search);
}

/** How many contacts' names or numbers contain `search`, counting no further than `limit`. */
export async function countMatchingContacts(db: Db, search: string, limit: number): Promise<number> {
  if ([...search.trim()].length < MIN_CHARS) return 0;
  const matching = searchSql().someContactIdsMatching(search, limit);
  const [row] = await rowsOf<{ n: number }>(db, sql`select count(*) as n from (${matching}) hits`);
  return Number(row?.n ?? 0);
}
