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

/** Messages whose body matches a `bodyMatchQuery` (PostgreSQL: the stored words, GIN-indexed; see 0007_search_columns). */
const bodyMatches = (match: string) =>
  sql`${messages}.body_words @@ to_tsquery('simple'::regconfig, zapdesk_fold(${match}))`;

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
  if (onPostgres) return newestMatchingTickets(match);
  return sql`select ticket_id from messages where id in (select rowid from messages_fts where messages_fts match ${match} order by rowid desc limit ${MESSAGE_HITS}) and is_deleted = 0`;
}

/** PostgreSQL: how many of the newest messages a ticket search reads first. */
const RECENT_WINDOW = 20_000;
/**
 * PostgreSQL: the matches among those RECENT_WINDOW messages from which a word counts as common. Walking back
 * through the messages costs about 0.3 µs a message, fetching one the index found about 3.5 µs: with a million
 * messages the walk to MESSAGE_HITS matches is the cheaper way for a word in more than about 0.6 % of them,
 * the index for a rarer one (either way about 20 ms at worst).
 */
const COMMON_IN_WINDOW = Math.round(RECENT_WINDOW * 0.006);

/**
 * The ticket ids of the newest MESSAGE_HITS messages (not deleted) matching `match`, on PostgreSQL, which cannot
 * read a GIN index newest first as FTS5 reads its own: the newest RECENT_WINDOW messages are walked first (a
 * common word fills the page there), then, by how many matched, the walk goes on or the index answers for the
 * rest (a rare word's few matches). The query is computed once, out of the planner's sight, so no estimate of
 * the word's frequency sends it down a walk through every message.
 */
function newestMatchingTickets(match: string): SQL {
  const matching = sql`body_words @@ (select q from query)`;
  const columns = sql`id, ticket_id, is_deleted`;
  // In parentheses: it follows a UNION in the ticket search.
  return sql`(with query as materialized (select to_tsquery('simple'::regconfig, zapdesk_fold(${match})) as q),
    edge as materialized (select coalesce(max(id), 0) - ${RECENT_WINDOW} as id from messages),
    recent as materialized (select ${columns} from messages where ${matching} and id > (select id from edge) order by id desc limit ${MESSAGE_HITS}),
    seen as materialized (select count(*)::int as n from recent),
    walked as materialized (select ${columns} from messages where ${matching} and id <= (select id from edge) and (select n from seen) between ${COMMON_IN_WINDOW} and ${MESSAGE_HITS - 1} order by id desc limit ${MESSAGE_HITS}),
    indexed as materialized (select ${columns} from messages where ${matching} and (select n from seen) < ${COMMON_IN_WINDOW})
    select ticket_id from (
      select * from recent union all select * from walked union all (select * from indexed where id <= (select id from edge))
      order by id desc limit ${MESSAGE_HITS}
    ) hits where not is_deleted)`;
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
