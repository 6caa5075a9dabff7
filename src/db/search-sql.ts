import { inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
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
  /** A select of the ids of at most `limit` contacts whose name or number contains `search`, in no order. */
  someContactIdsMatching(search: string, limit: number): SQL;
  /**
   * Contacts matching a search beyond which its tickets are met walking the list rather than read as a set (see
   * BROAD_SEARCH_HITS in the tickets' search).
   */
  broadContacts: number;
  /** Whether the contact `contactId` names has a name or number containing `search`, as a condition. */
  contactMatches(contactId: SQLWrapper, search: string): SQL;
  /**
   * A select of one row whose `many` says whether more than `many` messages (deleted ones too) match a
   * `prefixQuery` in a 1,000,000-message inbox (estimated on PostgreSQL).
   */
  manyMatches(match: string, many: number): SQL;
  /** A select of the ticket ids of every message (not deleted) whose body matches a `prefixQuery`. */
  ticketIdsOfMatches(match: string): SQL;
  /** Messages of `ticketIds` whose body matches a `prefixQuery`, as a condition on `messages`. */
  bodyMatchesWithin(db: Reader, match: string, ticketIds: number[]): SQL;
  /** How many rows the query returns in all, on each of its rows (a window over every row), as a number. */
  windowTotal(): SQL<number>;
  /** That `column` is one of the ids a search's select gives, each then looked up by that column's index. */
  amongHits(column: SQLWrapper, hits: SQLWrapper): SQL;
}

/** FTS5: the whole text as one phrase, so quotes and operators typed by the user are plain characters. */
const ftsPhrase = (search: string) => `"${search.replace(/"/g, '""')}"`;

/** PostgreSQL: a LIKE pattern over the trigram indexes; the typed text's own wildcards are plain characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const sqliteSearch: SearchSql = {
  // FTS5's prefix phrases.
  prefixQuery: (words) => words.map((w) => `"${w}"*`).join(" "),
  contactIdsMatching: (search, limit) =>
    sql`select rowid from contacts_fts where contacts_fts match ${ftsPhrase(search)} order by rowid desc limit ${limit}`,
  someContactIdsMatching: (search, limit) =>
    sql`select rowid from contacts_fts where contacts_fts match ${ftsPhrase(search)} limit ${limit}`,
  // A walk's check reads every match from the index once per stretch, so contacts are a set up to the messages' bound.
  broadContacts: 5_000,
  // The index's matches, read once per query.
  contactMatches: (contactId, search) =>
    sql`${contactId} in (select rowid from contacts_fts where contacts_fts match ${ftsPhrase(search)})`,
  // Counted from the index, which stops after `many`.
  manyMatches: (match, many) =>
    sql`select count(*) > ${many} as many from (select rowid from messages_fts where messages_fts match ${match} limit ${many + 1})`,
  ticketIdsOfMatches: (match) =>
    sql`select ticket_id from messages where id in (select rowid from messages_fts where messages_fts match ${match}) and is_deleted = 0`,
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
  amongHits: (column, hits) => sql`${column} in (${hits})`,
};

const postgresSearch: SearchSql = {
  // A tsquery of prefixes.
  prefixQuery: (words) => words.map((w) => `${w}:*`).join(" & "),
  contactIdsMatching(search, limit) {
    const pattern = likePattern(search);
    // Materialized: the matches come from the trigram indexes first, instead of a walk down the ids that tests
    // every contact until enough match. Names and numbers are looked up apart, so what the number index found
    // is rechecked against the number only; names against their stored folded form (0007_search_columns).
    return sql`with matching as materialized (select id from contacts where name_folded like zapdesk_fold(${pattern}) union select id from contacts where number like ${pattern}) select id from matching order by id desc limit ${limit}`;
  },
  // Both indexes' matches as one bitmap, whose rows are read only until `limit` are found.
  someContactIdsMatching(search, limit) {
    const pattern = likePattern(search);
    return sql`select id from contacts where name_folded like zapdesk_fold(${pattern}) or number like ${pattern} limit ${limit}`;
  },
  // A contact of the set costs its index entry, its row's recheck and its tickets' lookups (25 µs at 100,000
  // tickets), a ticket met on the walk one contact lookup (5 µs): walking to a page of 40 is the cheaper way from
  // about 1,000 matching contacts in such an inbox (a common surname: 4,000 contacts, 100 → 15 ms).
  broadContacts: 1_000,
  // Each contact looked up by id and its stored values compared: a common name or number would otherwise have
  // the trigram indexes gather its thousands of contacts first.
  contactMatches(contactId, search) {
    const pattern = likePattern(search);
    // A scalar subquery, run for each ticket: as EXISTS the planner would join every matching contact instead.
    return sql`coalesce((select c.name_folded like (select zapdesk_fold(${pattern})) or c.number like ${pattern} from contacts c where c.id = ${contactId}), false)`;
  },
  // A GIN index answers a common word's prefix in tens of milliseconds: the share of the newest messages that
  // match tells instead, on a walk back through them.
  manyMatches: (match, many) =>
    sql`select count(*) > ${Math.ceil((many * RECENT_WINDOW) / 1_000_000)} as many from (select body_words from messages order by id desc limit ${RECENT_WINDOW}) recent where ts_match_vq(body_words, (select to_tsquery('simple'::regconfig, zapdesk_fold(${match}))))`,
  ticketIdsOfMatches: (match) =>
    sql`select ticket_id from messages where body_words @@ (select to_tsquery('simple'::regconfig, zapdesk_fold(${match}))) and not is_deleted`,
  // As a function rather than the operator, so the tickets' messages are read by ticket and each checked: the GIN
  // index would first gather every match of a common word in the inbox.
  bodyMatchesWithin: (_db, match) =>
    sql`ts_match_vq(${messages}.body_words, (select to_tsquery('simple'::regconfig, zapdesk_fold(${match}))))`,
  windowTotal: () => sql<number>`(count(*) over ())::int`,
  // As an array computed first: a prepared statement's plan, made without the search's words, expects thousands
  // of hits and would scan every ticket to join them.
  amongHits: (column, hits) => sql`${column} = any(array(${hits}))`,
};

/** PostgreSQL: how many of the newest messages `manyMatches` reads. */
const RECENT_WINDOW = 5_000;

/** The search SQL of the engine this process stores in (the same choice as its tables). */
export const searchSql = (): SearchSql => (onPostgres ? postgresSearch : sqliteSearch);
