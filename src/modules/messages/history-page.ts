import { type Db, pipelinesStatements, type Reader } from "../../db/client";
import { desc, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import { type PreparedQuery, preparedPerCount, rowPlaceholder, writtenLimit } from "../../db/prepared";
import { messageReactions, messages, type MessageRow } from "../../db/tables";
import { type ReactionRow, reactionColumns } from "./dtos";

export const MESSAGE_PAGE_SIZE = 20;

/** Past this many tickets a contact's page is sorted from all their messages (a compound query has limits). */
const MERGED_TICKETS_MAX = 50;

/**
 * A page of the messages of these tickets, newest first (`offset` rows skipped; their tickets' messageCount says how
 * many they hold in all). Its queries are prepared once per number of tickets: building them through drizzle cost more
 * than SQLite took to answer them (a contact has a handful of tickets, so a handful of shapes). Where each statement
 * waits for its round trip (PostgreSQL), the page's reactions are read beside it, by the page's own condition;
 * SQLite, with no round trip to save, reads them by the page's ids (toMessageDtos), which costs it less.
 */
export async function historyPage(
  db: Reader,
  ticketIds: readonly number[],
  offset: number,
): Promise<{ rows: MessageRow[]; reactions?: ReactionRow[] }> {
  if (!ticketIds.length) return { rows: [] };
  if (ticketIds.length > MERGED_TICKETS_MAX) return { rows: await builtPage(db, ticketIds, offset) };
  const values: Record<string, unknown> = { offset, upTo: offset + MESSAGE_PAGE_SIZE };
  for (const [i, id] of ticketIds.entries()) values[rowPlaceholder("ticket", i)] = id;
  const [rows, reactions] = await Promise.all([
    pageOfTickets(db, ticketIds.length, offset).all(values) as Promise<MessageRow[]>,
    pipelinesStatements(db)
      ? (reactionsOfPage(db, ticketIds.length, offset).all(values) as Promise<ReactionRow[]>)
      : undefined,
  ]);
  return { rows, reactions };
}

const ticketPlaceholders = (tickets: number) =>
  Array.from({ length: tickets }, (_, i) => sql.placeholder(rowPlaceholder("ticket", i)));

const amongTickets = (tickets: number) => {
  const ids = ticketPlaceholders(tickets);
  return tickets === 1 ? eq(messages.ticketId, ids[0]!) : inArray(messages.ticketId, ids);
};

/** A page's limits: values, or written into the SQL. */
type Limits = { offset: number; upTo: number };

/**
 * A page query prepared once per number of tickets, and for the first page apart with its limits written into the
 * SQL: PostgreSQL plans a statement with a bound limit again on each run (its plan without the value expects a
 * tenth of the table), where the first page, by far the most asked for, can keep one plan.
 */
function perPage<Q extends PreparedQuery>(build: (db: Db, tickets: number, limits: Limits) => Q) {
  const first = preparedPerCount((db, tickets) =>
    build(db, tickets, { offset: writtenLimit(0), upTo: writtenLimit(MESSAGE_PAGE_SIZE) }),
  );
  const later = preparedPerCount((db, tickets) =>
    build(db, tickets, {
      offset: sql.placeholder("offset") as unknown as number,
      upTo: sql.placeholder("upTo") as unknown as number,
    }),
  );
  return (db: Reader, tickets: number, offset: number) => (offset === 0 ? first : later)(db, tickets);
}

const pageOfTickets = perPage((db, ticketCount, limits) => {
  const newestFirst = [desc(messages.createdAt), desc(messages.id)];
  if (ticketCount === 1)
    return db
      .select()
      .from(messages)
      .where(amongTickets(1))
      .orderBy(...newestFirst)
      .limit(writtenLimit(MESSAGE_PAGE_SIZE))
      .offset(limits.offset)
      .prepare();
  return db
    .select(getTableColumns(messages))
    .from(messages)
    .innerJoin(sql`(${pageIds(ticketCount, limits)}) as ${sql.identifier("page")}`, sql`${messages.id} = "page"."id"`)
    .orderBy(...newestFirst)
    .prepare();
});

/** The reactions to the messages pageOfTickets reads, in time order. */
const reactionsOfPage = perPage((db, ticketCount, limits) =>
  db
    .select(reactionColumns())
    .from(messageReactions)
    .where(sql`${messageReactions.messageId} in (${pageIds(ticketCount, limits)})`)
    .orderBy(messageReactions.createdAt)
    .prepare(),
);

/**
 * The ids of a page's messages. Of several tickets, from each ticket's newest `upTo`, read in index order and
 * merged, so the page sorts at most that many entries a ticket instead of every message of the contact (a long
 * chat's first page); the page's rows are then read by id. Picking the rows among the candidates by `id in (…)`
 * instead, PostgreSQL read the whole table where it held few other messages.
 */
function pageIds(tickets: number, { offset, upTo }: Limits): SQL {
  const ids = ticketPlaceholders(tickets);
  const newestFirst = sql`order by ${messages.createdAt} desc, ${messages.id} desc`;
  if (tickets === 1)
    return sql`select ${messages.id} from ${messages} where ${messages.ticketId} = ${ids[0]} ${newestFirst} limit ${writtenLimit(MESSAGE_PAGE_SIZE)} offset ${offset}`;
  const newest = ids.map(
    (ticketId, i) =>
      sql`select * from (select ${messages.id} as id, ${messages.createdAt} as at from ${messages} where ${messages.ticketId} = ${ticketId} ${newestFirst} limit ${upTo}) as ${sql.identifier(`c${i}`)}`,
  );
  return sql`select "c"."id" from (${sql.join(newest, sql` union all `)}) as "c" order by "c"."at" desc, "c"."id" desc limit ${writtenLimit(MESSAGE_PAGE_SIZE)} offset ${offset}`;
}

/** A contact with very many tickets: the page sorted from all their messages, built for this call. */
async function builtPage(db: Reader, ticketIds: readonly number[], offset: number) {
  return await db
    .select()
    .from(messages)
    .where(inArray(messages.ticketId, [...ticketIds]))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MESSAGE_PAGE_SIZE)
    .offset(offset);
}
