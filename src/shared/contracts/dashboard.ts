import type { Role } from "../permissions";
import type { Availability } from "./users";

/** A user as the dashboard lists the team: whether they take work now, and how many conversations they hold. */
export interface TeamMemberDto {
  id: number;
  name: string;
  profile: Role;
  availability: Availability;
  /** Their open tickets, among those the caller may see. */
  openTickets: number;
}

/** GET /dashboard: ticket counts under the caller's visibility, today's tickets per hour, and the team. */
export interface DashboardDto {
  open: number;
  pending: number;
  closed: number;
  /** Tickets created today per local hour, 08:00 to 19:00 (12 numbers). */
  hourly: number[];
  /** Every user, online first, then away, then offline, by name within each. */
  team: TeamMemberDto[];
}
