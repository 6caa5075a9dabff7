import { and, count, eq, gte, isNotNull, lt } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { tickets } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";
import { visibleTickets } from "./list";

/** How many tickets the user may see are in each status. */
export async function countByStatus(db: Reader, user: AuthUser): Promise<{ status: string; n: number }[]> {
  return await db
    .select({ status: tickets.status, n: count() })
    .from(tickets)
    .where(visibleTickets(user))
    .groupBy(tickets.status);
}

/** When each ticket the user may see was created, for those created in [start, end) (epoch ms). */
export async function creationTimes(db: Reader, user: AuthUser, start: number, end: number): Promise<Date[]> {
  return (
    await db
      .select({ createdAt: tickets.createdAt })
      .from(tickets)
      .where(and(visibleTickets(user), gte(tickets.createdAt, new Date(start)), lt(tickets.createdAt, new Date(end))))
  ).map((r) => r.createdAt);
}

/** How many open tickets each user holds, among those the viewer may see (users without any are left out). */
export async function openTicketsPerUser(db: Reader, viewer: AuthUser): Promise<{ userId: number; n: number }[]> {
  const rows = await db
    .select({ userId: tickets.userId, n: count() })
    .from(tickets)
    .where(and(eq(tickets.status, "open"), isNotNull(tickets.userId), visibleTickets(viewer)))
    .groupBy(tickets.userId);
  return rows.map((r) => ({ userId: r.userId!, n: r.n }));
}
