import { and, asc, type Column, count, eq, getTableColumns, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { lockingRows } from "../../db/row-locks";
import { type TicketRow, tickets, userQueues, users } from "../../db/tables";

/**
 * A ticket of the queue waiting for an agent: pending, nobody's, not snoozed, and no longer in the chatbot's hands
 * where the queue has chatbot options (`asksFirst`; a queue without them has nothing to ask first).
 */
const waitingHere = (
  table: Record<"queueId" | "status" | "userId" | "snoozedUntil" | "isBot", Column>,
  asksFirst: boolean,
) =>
  and(
    eq(table.queueId, sql.placeholder("queueId")),
    eq(table.status, "pending"),
    isNull(table.userId),
    isNull(table.snoozedUntil),
    asksFirst ? eq(table.isBot, false) : undefined,
  );

/** A member of a queue as its assignment rule weighs them. */
export interface QueueMember {
  userId: number;
  name: string;
  availability: string;
  /** The queue's assignment count when a rule last gave them a ticket here (0 = never). */
  lastTurn: number;
  /** Their open tickets in the queue. */
  open: number;
}

/**
 * Every member of the queue, with their availability, last turn and open tickets there, in one query; none when no
 * ticket waits in the queue (then nobody needs weighing).
 */
export async function membersWhileWaiting(db: Reader, queueId: number): Promise<QueueMember[]> {
  const rows = (await membersOf(db).all({ queueId })) as (QueueMember & { open: unknown })[];
  return rows.map((row) => ({ ...row, open: Number(row.open) }));
}

const membersOf = prepared((db) =>
  db
    .select({
      userId: userQueues.userId,
      name: users.name,
      availability: users.availability,
      lastTurn: userQueues.lastTurn,
      open: sql<unknown>`(${db
        .select({ n: count() })
        .from(tickets)
        .where(
          and(
            eq(tickets.queueId, userQueues.queueId),
            eq(tickets.userId, userQueues.userId),
            eq(tickets.status, "open"),
          ),
        )})`,
    })
    .from(userQueues)
    .innerJoin(users, eq(users.id, userQueues.userId))
    .where(
      and(
        eq(userQueues.queueId, sql.placeholder("queueId")),
        // Without the chatbot's condition: a queue whose chatbot still holds its tickets costs the pick one look.
        sql`exists ${db.select({ one: sql`1` }).from(tickets).where(waitingHere(tickets, false))}`,
      ),
    )
    .prepare(),
);

/**
 * Opens for the agent the ticket of the queue that has waited longest for one; answers it as written, and whether another waits behind it. On PostgreSQL the ticket is locked as it is
 * picked, so a person taking it meanwhile (who needs no queue lock) makes the pick move on to the next one.
 */
export const takeOldest = (db: Reader, asksFirst: boolean) => (asksFirst ? takeOldestAfterChatbot : takeOldestAny)(db);

const takeOldestQuery = (asksFirst: boolean) =>
  prepared((db) => {
    const behind = alias(tickets, "behind");
    const oldest = db
      .select({ id: tickets.id })
      .from(tickets)
      .where(waitingHere(tickets, asksFirst))
      .orderBy(asc(tickets.createdAt), asc(tickets.id))
      .limit(1);
    return db
      .update(tickets)
      .set({
        status: "open",
        userId: sql`${sql.placeholder("userId")}`,
        isBot: false,
        updatedAt: sql`${sql.placeholder("now")}`,
      } as unknown as Partial<TicketRow>)
      .where(and(sql`${tickets.id} = ${lockingRows(oldest)}`, waitingHere(tickets, asksFirst)))
      .returning({
        ...getTableColumns(tickets),
        moreWaiting: sql<unknown>`exists ${db
          .select({ one: sql`1` })
          .from(behind)
          .where(and(waitingHere(behind, asksFirst), ne(behind.id, tickets.id)))}`,
      })
      .prepare();
  });

const takeOldestAny = takeOldestQuery(false);
const takeOldestAfterChatbot = takeOldestQuery(true);
