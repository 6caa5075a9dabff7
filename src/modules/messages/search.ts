import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client";
import { amongIds } from "../../db/index-hints";
import { indexNewMessages } from "../../db/search-index";
import { searchSql } from "../../db/search-sql";
import { messages } from "../../db/tables";

/** Words shorter than this are not looked up in message bodies: a one-letter prefix matches most of the table. */
const MIN_WORD = 2;

/**
 * The full-text query for what a user typed: every word must start a word of the body, ignoring case and
 * accents ("joao ped" finds "João, o pedido"). Null when nothing searchable was typed.
 */
export function bodyMatchQuery(search: string): string | null {
  const words = (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= MIN_WORD);
  if (!words.length) return null;
  return searchSql().prefixQuery(words);
}

/**
 * Ids of the tickets with a message (not deleted) whose body matches `search`, as a select of every such ticket;
 * null when the search has no word to look up. The caller runs indexNewMessages first, so messages still waiting
 * for the index are found too.
 */
export function ticketsWithMatchingMessages(search: string): SQL | null {
  const match = bodyMatchQuery(search);
  if (!match) return null;
  return searchSql().ticketIdsOfMatches(match);
}

/** Whether more than `many` messages (deleted ones too) match `search` in a 1,000,000-message inbox (see manyMatches). */
export async function matchesManyMessages(db: Db, search: string, many: number): Promise<boolean> {
  const match = bodyMatchQuery(search);
  if (!match) return false;
  const [row] = await rowsOf<{ many: boolean | number }>(db, searchSql().manyMatches(match, many));
  return Boolean(row?.many);
}

/** Which of `ticketIds` have a message (not deleted) whose body matches `search`. */
export async function ticketsWithMatchesAmong(db: Db, ticketIds: number[], search: string): Promise<number[]> {
  const match = bodyMatchQuery(search);
  if (!match || !ticketIds.length) return [];
  return (await matchesAmongQuery(db, ticketIds, match)).map((r) => r.ticketId);
}

/** The query of `ticketsWithMatchesAmong` for a full-text `match` (exposed so its query plan can be checked). */
export function matchesAmongQuery(db: Db, ticketIds: number[], match: string) {
  return db
    .selectDistinct({ ticketId: messages.ticketId })
    .from(messages)
    .where(matchingIn(db, ticketIds, match));
}

/** At most this many hits are returned for a search inside one conversation, the newest ones. */
export const HISTORY_SEARCH_LIMIT = 100;

/**
 * Messages (not deleted) of `ticketIds` whose body matches `search`, ids oldest first: the newest
 * HISTORY_SEARCH_LIMIT of them, and how many match in all.
 */
export async function searchHistory(db: Db, ticketIds: number[], search: string) {
  const match = bodyMatchQuery(search);
  if (!match || !ticketIds.length) return { ids: [] as number[], count: 0 };
  await indexNewMessages(db);
  const rows = await historySearchQuery(db, ticketIds, match);
  return { ids: rows.reverse().map((r) => r.id), count: rows[0]?.total ?? 0 };
}

/**
 * The query of `searchHistory` for a full-text `match` (exposed so its query plan can be checked); the total
 * comes with the rows, a window over every match.
 */
export function historySearchQuery(db: Db, ticketIds: number[], match: string) {
  return db
    .select({ id: messages.id, total: searchSql().windowTotal() })
    .from(messages)
    .where(matchingIn(db, ticketIds, match))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_SEARCH_LIMIT);
}

/** The messages of `ticketIds` (not deleted) whose body matches the full-text `match`. */
function matchingIn(db: Db, ticketIds: number[], match: string) {
  return and(
    searchSql().bodyMatchesWithin(db, match, ticketIds),
    amongIds(messages.ticketId, ticketIds),
    eq(messages.isDeleted, false),
  );
}

/**
 * For a ticket search's page: the newest message of each ticket whose body matches `search` (not deleted), as the
 * rows show it under the ticket; one query for the whole page.
 */
export async function newestMatches(
  db: Db,
  ticketIds: number[],
  search: string,
): Promise<Map<number, { messageId: number; text: string }>> {
  const match = bodyMatchQuery(search);
  const found = new Map<number, { messageId: number; text: string }>();
  if (!match || !ticketIds.length) return found;
  const ranked = db
    .select({
      id: messages.id,
      ticketId: messages.ticketId,
      body: messages.body,
      rank: sql<number>`row_number() over (partition by ${messages.ticketId} order by ${messages.createdAt} desc, ${messages.id} desc)`.as(
        "rank",
      ),
    })
    .from(messages)
    .where(matchingIn(db, ticketIds, match))
    .as("ranked");
  const rows = await db.select().from(ranked).where(eq(ranked.rank, 1));
  for (const r of rows) found.set(r.ticketId, { messageId: r.id, text: stripMark(r.body) });
  return found;
}

/** Automatic messages start with an invisible mark the reader has no use for. */
const stripMark = (body: string) => body.replace(/^\u200e/, "");
