import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { messages } from "../../db/tables";

/** How many private notes each of these tickets holds (a ticket without any is absent). */
export async function privateNoteCounts(db: Db, ticketIds: number[]): Promise<Map<number, number>> {
  if (!ticketIds.length) return new Map();
  const rows = await db
    .select({ ticketId: messages.ticketId, n: count() })
    .from(messages)
    .where(and(inArray(messages.ticketId, ticketIds), eq(messages.isPrivate, true)))
    .groupBy(messages.ticketId);
  return new Map(rows.map((r) => [r.ticketId, r.n]));
}
