import type { Db } from "../../db/client";
import { countByStatus, creationTimes, openTicketsPerUser } from "../tickets/counts";
import { dayRangeOf } from "../tickets/day-range";
import { teamAvailability } from "../users/lookup";
import type { AuthUser } from "../../shared/auth-user";
import type { DashboardDto, TeamMemberDto } from "../../shared/contracts/dashboard";
import { AVAILABILITIES } from "../../shared/contracts/users";

const FIRST_HOUR = 8;

/**
 * The dashboard under the caller's queue visibility: counts by status, today's tickets per hour in the configured
 * time zone, and the team with each user's open tickets (two queries whatever the team's size).
 */
export async function dashboardFor(db: Db, user: AuthUser, now: number, timeZone: string): Promise<DashboardDto> {
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
  return { open: n("open"), pending: n("pending"), closed: n("closed"), hourly, team: await teamOf(db, user) };
}

async function teamOf(db: Db, viewer: AuthUser): Promise<TeamMemberDto[]> {
  const open = new Map((await openTicketsPerUser(db, viewer)).map((r) => [r.userId, r.n]));
  const rank = (m: TeamMemberDto) => AVAILABILITIES.indexOf(m.availability);
  return (await teamAvailability(db))
    .map((u) => ({ ...u, openTickets: open.get(u.id) ?? 0 }))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name) || a.id - b.id);
}
