import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { messages } from "../../db/schema";

/** Words shorter than this are not looked up in message bodies: a one-letter prefix matches most of the table. */
const MIN_WORD = 2;

/**
 * The full-text query for what a user typed: every word must start a word of the body, ignoring case and
 * accents ("joao ped" finds "João, o pedido"). Null when nothing searchable was typed.
 */
export function bodyMatchQuery(search: string): string | null {
  const words = (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= MIN_WORD);
  if (!words.length) return null;
  return words.map((w) => `"${w}"*`).join(" ");
}

/**
 * Ids of tickets with a message (not deleted) whose body matches `search`, as a subquery; it reads the
 * `messages_fts` index (kept in step with `messages` by triggers), so it never scans the messages table.
 * Null when the search has no word to look up.
 */
export function ticketsWithMatchingMessages(db: Db, search: string) {
  const match = bodyMatchQuery(search);
  if (!match) return null;
  const matching = sql`(select rowid from messages_fts where messages_fts match ${match})`;
  return db
    .select({ ticketId: messages.ticketId })
    .from(messages)
    .where(and(inArray(messages.id, matching), eq(messages.isDeleted, false)));
}

/** At most this many hits are returned for a search inside one conversation, the newest ones. */
export const HISTORY_SEARCH_LIMIT = 100;

/**
 * Messages (not deleted) of `ticketIds` whose body matches `search`, ids oldest first: the newest
 * HISTORY_SEARCH_LIMIT of them, and how many match in all.
 */
export function searchHistory(db: Db, ticketIds: number[], search: string) {
  const match = bodyMatchQuery(search);
  if (!match || !ticketIds.length) return { ids: [] as number[], count: 0 };
  const matching = sql`(select rowid from messages_fts where messages_fts match ${match})`;
  const where = and(
    inArray(messages.id, matching),
    inArray(messages.ticketId, ticketIds),
    eq(messages.isDeleted, false),
  );
  const rows = db
    .select({ id: messages.id })
    .from(messages)
    .where(where)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_SEARCH_LIMIT)
    .all();
  const total = db.select({ n: count() }).from(messages).where(where).get()?.n ?? 0;
  return { ids: rows.reverse().map((r) => r.id), count: total };
}
