import { and, count, gte, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/schema";
import { dayRangeOf } from "../tickets/day-range";
import { visibleTickets } from "../tickets/list";
import type { AuthUser } from "../../shared/auth-user";

export interface Dashboard {
  open: number;
  pending: number;
  closed: number;
  /** Tickets created today per local hour, 08:00 to 19:00 (12 numbers). */
  hourly: number[];
}

const FIRST_HOUR = 8;

/** The dashboard counts under the caller's queue visibility, today in the configured time zone. */
export function dashboardFor(db: Db, user: AuthUser, now: number, timeZone: string): Dashboard {
  const visible = visibleTickets(user);
  const byStatus = db
    .select({ status: tickets.status, n: count() })
    .from(tickets)
    .where(visible)
    .groupBy(tickets.status)
    .all();
  const n = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0;
  const [start, end] = dayRangeOf(now, timeZone);
  const created = db
    .select({ createdAt: tickets.createdAt })
    .from(tickets)
    .where(and(visible, gte(tickets.createdAt, new Date(start)), lt(tickets.createdAt, new Date(end))))
    .all();
  const hourly = new Array<number>(12).fill(0);
  const hourOf = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "numeric", hourCycle: "h23" });
  for (const { createdAt } of created) {
    const slot = Number(hourOf.format(createdAt)) - FIRST_HOUR;
    if (slot >= 0 && slot < hourly.length) hourly[slot]! += 1;
  }
  return { open: n("open"), pending: n("pending"), closed: n("closed"), hourly };
}
