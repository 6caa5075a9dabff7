import { inArray, type SQL, sql } from "drizzle-orm";
import type { Reader } from "./client";
import { messages, onPostgres } from "./tables";

/**
 * The full-text and trigram SQL of each engine: SQLite reads its FTS5 tables (`messages_fts`, `contacts_fts`),
 * PostgreSQL its stored folded columns and their GIN indexes (0007_search_columns). The modules decide what is
 * searched and how much of it; these say how the engine finds it.
 */
interface SearchSql {
  /** Every word must start a word of the text (words hold only letters and digits). */
  prefixQuery(words: string[]): string;
  /** A select of the ids of the newest `limit` contacts whose name or number contains `search`. */
  contactIdsMatching(search: string, limit: number): SQL;
  /** A select of the ticket ids of the newest `limit` messages (not deleted) whose body matches a `prefixQuery`. */
  ticketIdsOfNewestMatches(match: string, limit: number): SQL;
  /** Messages of `ticketIds` whose body matches a `prefixQuery`, as a condition on `messages`. */
  bodyMatchesWithin(db: Reader, match: string, ticketIds: number[]): SQL;
  /** How many rows the query returns in all, on each of its rows (a window over every row), as a number. */
  windowTotal(): SQL<number>;
}

const sqliteSearch: SearchSql = {
  // FTS5's prefix phrases.
  prefixQuery: (words) => words.map((w) => `"${w}"*`).join(" "),
  contactIdsMatching(search, limit) {
    // The whole text is one phrase, so quotes and operators typed by the user are plain characters.
    const phrase = `"${search.replace(/"/g, '""')}"`;
    return sql`select rowid from contacts_fts where contacts_fts match ${phrase} order by rowid desc limit ${limit}`;
  },
  // Newest first from the index, stopping at `limit`: a common word costs no more than a rare one.
  ticketIdsOfNewestMatches: (match, limit) =>
    sql`select ticket_id from messages where id in (select rowid from messages_fts where messages_fts match ${match} order by rowid desc limit ${limit}) and is_deleted = 0`,
  bodyMatchesWithin(db, match, ticketIds) {
    // The index is read only between the tickets' first and last message ids, so a common word costs what the
    // conversation holds, not what the whole inbox holds.
    const ofTickets = inArray(messages.ticketId, ticketIds);
    const first = db
      .select({ id: sql`min(${messages.id})` })
      .from(messages)
      .where(ofTickets);
    const last = db
      .select({ id: sql`max(${messages.id})` })
      .from(messages)
      .where(ofTickets);
    const matching = sql`(select rowid from messages_fts where messages_fts match ${match} and rowid between (${first}) and (${last}))`;
    return inArray(messages.id, matching);
  },
  windowTotal: () => sql<number>`count(*) over ()`,
};

const postgresSearch: SearchSql = {
  // A tsquery of prefixes.
  prefixQuery: (words) => words.map((w) => `${w}:*`).join(" & "),
  contactIdsMatching(search, limit) {
    // A LIKE pattern over the trigram indexes; the typed text's own wildcards are plain characters.
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // Materialized: the matches come from the trigram indexes first, instead of a walk down the ids that tests
    // every contact until enough match. Names and numbers are looked up apart, so what the number index found
    // is rechecked against the number only; names against their stored folded form (0007_search_columns).
    return sql`with matching as materialized (select id from contacts where name_folded like zapdesk_fold(${pattern}) union select id from contacts where number like ${pattern}) select id from matching order by id desc limit ${limit}`;
  },
  ticketIdsOfNewestMatches: newestMatchingTickets,
  bodyMatchesWithin: (_db, match) =>
    sql`${messages}.body_words @@ to_tsquery('simple'::regconfig, zapdesk_fold(${match}))`,
  windowTotal: () => sql<number>`(count(*) over ())::int`,
};

/** PostgreSQL: how many of the newest messages a ticket search reads first. */
const RECENT_WINDOW = 20_000;
/**
 * PostgreSQL: the matches among those RECENT_WINDOW messages from which a word counts as common. Walking back
 * through the messages costs about 0.3 µs a message, fetching one the index found about 3.5 µs: with a million
 * messages the walk to a page of 500 matches is the cheaper way for a word in more than about 0.6 % of them, the
 * index for a rarer one (either way about 20 ms at worst).
 */
const COMMON_IN_WINDOW = Math.round(RECENT_WINDOW * 0.006);

/**
 * PostgreSQL cannot read a GIN index newest first as FTS5 reads its own: the newest RECENT_WINDOW messages are
 * walked first (a common word fills the page there), then, by how many matched, the walk goes on or the index
 * answers for the rest (a rare word's few matches). The query is computed once, out of the planner's sight, so
 * no estimate of the word's frequency sends it down a walk through every message.
 */
function newestMatchingTickets(match: string, limit: number): SQL {
  const matching = sql`body_words @@ (select q from query)`;
  const columns = sql`id, ticket_id, is_deleted`;
  // In parentheses: it follows a UNION in the ticket search.
  return sql`(with query as materialized (select to_tsquery('simple'::regconfig, zapdesk_fold(${match})) as q),
    edge as materialized (select coalesce(max(id), 0) - ${RECENT_WINDOW} as id from messages),
    recent as materialized (select ${columns} from messages where ${matching} and id > (select id from edge) order by id desc limit ${limit}),
    seen as materialized (select count(*)::int as n from recent),
    walked as materialized (select ${columns} from messages where ${matching} and id <= (select id from edge) and (select n from seen) between ${COMMON_IN_WINDOW} and ${limit - 1} order by id desc limit ${limit}),
    indexed as materialized (select ${columns} from messages where ${matching} and (select n from seen) < ${COMMON_IN_WINDOW})
    select ticket_id from (
      select * from recent union all select * from walked union all (select * from indexed where id <= (select id from edge))
      order by id desc limit ${limit}
    ) hits where not is_deleted)`;
}

/** The search SQL of the engine this process stores in (the same choice as its tables). */
export const searchSql = (): SearchSql => (onPostgres ? postgresSearch : sqliteSearch);
