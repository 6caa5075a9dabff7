import { first, type Reader } from "../../db/client";
import { count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { preparedPerCount, rowPlaceholder } from "../../db/prepared";
import { messageReactions, messages, type MessageRow } from "../../db/tables";
import { type ReactionRow, reactionColumns } from "./dtos";

export const MESSAGE_PAGE_SIZE = 20;

/** Past this many tickets a contact's page is sorted from all their messages (a compound query has limits). */
const MERGED_TICKETS_MAX = 50;

/**
 * A page of the messages of these tickets, newest first (`offset` rows skipped), and how many they hold in all.
 * Its two queries are prepared once per number of tickets: building them through drizzle cost more than SQLite
 * took to answer them (a contact has a handful of tickets, so a handful of shapes).
 */
export async function historyPage(
  db: Reader,
  ticketIds: readonly number[],
  offset: number,
): Promise<{ rows: MessageRow[]; total: number; reactions?: ReactionRow[] }> {
  if (!ticketIds.length) return { rows: [], total: 0 };
  if (ticketIds.length > MERGED_TICKETS_MAX) return await builtPage(db, ticketIds, offset);
  const values: Record<string, unknown> = { offset, upTo: offset + MESSAGE_PAGE_SIZE };
  for (const [i, id] of ticketIds.entries()) values[rowPlaceholder("ticket", i)] = id;
  // The page's reactions are read beside it, by the page's own condition, not after it by its messages' ids.
  const [rows, total, reactions] = await Promise.all([
    pageOfTickets(db, ticketIds.length).all(values) as Promise<MessageRow[]>,
    countOfTickets(db, ticketIds.length).get(values) as Promise<{ n: number } | undefined>,
    reactionsOfPage(db, ticketIds.length).all(values) as Promise<ReactionRow[]>,
  ]);
  return { rows, total: total?.n ?? 0, reactions };
}

const ticketPlaceholders = (tickets: number) =>
  Array.from({ length: tickets }, (_, i) => sql.placeholder(rowPlaceholder("ticket", i)));

const amongTickets = (tickets: number) => {
  const ids = ticketPlaceholders(tickets);
  return tickets === 1 ? eq(messages.ticketId, ids[0]!) : inArray(messages.ticketId, ids);
};

const pageWhere = (tickets: number) =>
  tickets === 1 ? amongTickets(1) : newestOfEach(ticketPlaceholders(tickets), sql.placeholder("upTo"));

const pageOfTickets = preparedPerCount((db, tickets) =>
  db
    .select()
    .from(messages)
    .where(pageWhere(tickets))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MESSAGE_PAGE_SIZE)
    .offset(sql.placeholder("offset"))
    .prepare(),
);

/** The reactions to the messages pageOfTickets reads, in time order. */
const reactionsOfPage = preparedPerCount((db, tickets) =>
  db
    .select(reactionColumns())
    .from(messageReactions)
    .where(
      inArray(
        messageReactions.messageId,
        db
          .select({ id: messages.id })
          .from(messages)
          .where(pageWhere(tickets))
          .orderBy(desc(messages.createdAt), desc(messages.id))
          .limit(MESSAGE_PAGE_SIZE)
          .offset(sql.placeholder("offset")),
      ),
    )
    .orderBy(messageReactions.createdAt)
    .prepare(),
);

const countOfTickets = preparedPerCount((db, tickets) =>
  db.select({ n: count() }).from(messages).where(amongTickets(tickets)).prepare(),
);

/**
 * The messages a page can come from: each ticket's newest `upTo`, read in index order, so the page sorts at most
 * that many rows a ticket instead of every message of the contact (a long chat's first page). They are the whole
 * condition: beside the tickets' one, SQLite read every message of the tickets through their index and checked
 * each against the candidates, instead of reading them by id.
 */
function newestOfEach(ticketIds: readonly unknown[], upTo: unknown): SQL {
  const newest = ticketIds.map(
    (ticketId, i) =>
      sql`select ${sql.identifier(`c${i}`)}.id from (select ${messages.id} as id from ${messages} where ${messages.ticketId} = ${ticketId} order by ${messages.createdAt} desc, ${messages.id} desc limit ${upTo}) as ${sql.identifier(`c${i}`)}`,
  );
  return sql`${messages.id} in (${sql.join(newest, sql` union all `)})`;
}

/** A contact with very many tickets: the page sorted from all their messages, built for this call. */
async function builtPage(db: Reader, ticketIds: readonly number[], offset: number) {
  const where = inArray(messages.ticketId, [...ticketIds]);
  const rows = await db
    .select()
    .from(messages)
    .where(where)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MESSAGE_PAGE_SIZE)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(messages).where(where)))?.n ?? 0;
  return { rows, total };
}
