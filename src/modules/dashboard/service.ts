import type { Db } from "../../db/client";
import { countByStatus, creationTimes } from "../tickets/counts";
import { dayRangeOf } from "../tickets/day-range";
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
export async function dashboardFor(db: Db, user: AuthUser, now: number, timeZone: string): Promise<Dashboard> {
  const byStatus = await countByStatus(db, user);
  const n = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0;
  const [start, end] = dayRangeOf(now, timeZone);
  const created = await creationTimes(db, user, start, end);
  const hourly = new Array<number>(12).fill(0);
  const hourOf = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "numeric", hourCycle: "h23" });
  for (const createdAt of created) {
    const slot = Number(hourOf.format(createdAt)) - FIRST_HOUR;
    if (slot >= 0 && slot < hourly.length) hourly[slot]! += 1;
  }
  return { open: n("open"), pending: n("pending"), closed: n("closed"), hourly };
}
