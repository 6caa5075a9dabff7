import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { messages, onPostgres } from "../../db/tables";
import { indexNewMessages } from "./search-index";

/** Words shorter than this are not looked up in message bodies: a one-letter prefix matches most of the table. */
const MIN_WORD = 2;

/**
 * The full-text query for what a user typed: every word must start a word of the body, ignoring case and
 * accents ("joao ped" finds "João, o pedido"). Null when nothing searchable was typed.
 */
export function bodyMatchQuery(search: string): string | null {
  const words = (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= MIN_WORD);
  if (!words.length) return null;
  // FTS5's prefix phrases, or PostgreSQL's tsquery of prefixes (words hold only letters and digits).
  return words.map((w) => (onPostgres ? `${w}:*` : `"${w}"*`)).join(onPostgres ? " & " : " ");
}

/** Messages whose body matches a `bodyMatchQuery` (PostgreSQL: its GIN index over the folded body). */
const bodyMatches = (match: string) =>
  sql`to_tsvector('simple'::regconfig, zapdesk_fold(${messages.body})) @@ to_tsquery('simple'::regconfig, zapdesk_fold(${match}))`;

/** A ticket search reads at most this many matching messages, the newest first: enough for any page people read. */
export const MESSAGE_HITS = 500;

/**
 * Ids of tickets with one of the newest MESSAGE_HITS messages (not deleted) whose body matches `search`, as a
 * select; it reads the `messages_fts` index newest first and stops there, so a common word costs no more than a
 * rare one and the messages table is never scanned. Null when the search has no word to look up. The caller runs
 * indexNewMessages first, so messages still waiting for the index are found too.
 */
export function ticketsWithMatchingMessages(search: string): SQL | null {
  const match = bodyMatchQuery(search);
  if (!match) return null;
  if (onPostgres)
    return sql`select ticket_id from messages where id in (select id from messages where ${bodyMatches(match)} order by id desc limit ${MESSAGE_HITS}) and is_deleted = false`;
  return sql`select ticket_id from messages where id in (select rowid from messages_fts where messages_fts match ${match} order by rowid desc limit ${MESSAGE_HITS}) and is_deleted = 0`;
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
 * The query of `searchHistory` for a full-text `match` (exposed so its query plan can be checked). The index is
 * read only between the first and last message ids of these tickets, so a common word costs what the
 * conversation holds, not what the whole inbox holds; the total comes with the rows, a window over every match.
 */
export function historySearchQuery(db: Db, ticketIds: number[], match: string) {
  const ofTickets = inArray(messages.ticketId, ticketIds);
  if (onPostgres)
    return db
      .select({ id: messages.id, total: sql<number>`(count(*) over ())::int` })
      .from(messages)
      .where(and(ofTickets, bodyMatches(match), eq(messages.isDeleted, false)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(HISTORY_SEARCH_LIMIT);
  const first = db
    .select({ id: sql`min(${messages.id})` })
    .from(messages)
    .where(ofTickets);
  const last = db
    .select({ id: sql`max(${messages.id})` })
    .from(messages)
    .where(ofTickets);
  const matching = sql`(select rowid from messages_fts where messages_fts match ${match} and rowid between (${first}) and (${last}))`;
  return db
    .select({ id: messages.id, total: sql<number>`count(*) over ()` })
    .from(messages)
    .where(and(inArray(messages.id, matching), inArray(messages.ticketId, ticketIds), eq(messages.isDeleted, false)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_SEARCH_LIMIT);
}
