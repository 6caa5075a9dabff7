import { and, count, eq, gte, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { messages, tickets } from "../../db/tables";

/** How many messages one agent typed in tickets of one queue (null: tickets without a queue). */
export interface AgentMessageCount {
  userId: number;
  queueId: number | null;
  n: number;
}

/**
 * The messages agents typed and sent in [start, end) (epoch ms; private notes left out), counted per agent and
 * per queue of their ticket, optionally only in these queues or by these agents. The messages are counted per
 * ticket first, from the index alone, so the join reads one ticket per conversation rather than per message.
 */
export async function agentMessageCounts(
  db: Reader,
  filter: { start: number; end: number; queueIds?: readonly number[]; userIds?: readonly number[] },
): Promise<AgentMessageCount[]> {
  const where: (SQL | undefined)[] = [
    isNotNull(messages.userId),
    gte(messages.createdAt, new Date(filter.start)),
    lt(messages.createdAt, new Date(filter.end)),
    eq(messages.isPrivate, false),
  ];
  if (filter.userIds) where.push(inArray(messages.userId, [...filter.userIds]));
  const perTicket = db
    .select({ userId: messages.userId, ticketId: messages.ticketId, n: count().as("n") })
    .from(messages)
    .where(and(...where))
    .groupBy(messages.userId, messages.ticketId)
    .as("per_ticket");
  const rows = await db
    .select({ userId: perTicket.userId, queueId: tickets.queueId, n: sql<number>`sum(${perTicket.n})`.mapWith(Number) })
    .from(perTicket)
    .innerJoin(tickets, eq(tickets.id, perTicket.ticketId))
    .where(filter.queueIds ? inArray(tickets.queueId, [...filter.queueIds]) : undefined)
    .groupBy(perTicket.userId, tickets.queueId);
  return rows.map((r) => ({ userId: r.userId!, queueId: r.queueId, n: r.n }));
}
