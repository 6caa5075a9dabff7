import type { QueueAssignment } from "../../shared/contracts/queues";
import type { QueueMember as Member } from "./assignment-queries";

/**
 * The member a rule gives the next ticket to, among those online and under the cap (0 = no cap), or nothing:
 * round-robin takes the one whose turn came longest ago; least-busy the one with the fewest open tickets, then the
 * one whose turn came longest ago; the lowest id breaks the last ties.
 */
export function pickMember(rule: Exclude<QueueAssignment, "manual">, cap: number, members: readonly Member[]) {
  let best: Member | undefined;
  for (const member of members) {
    if (member.availability !== "online" || (cap > 0 && member.open >= cap)) continue;
    if (!best || comesFirst(rule, member, best)) best = member;
  }
  return best;
}

function comesFirst(rule: Exclude<QueueAssignment, "manual">, a: Member, b: Member) {
  if (rule === "least_busy" && a.open !== b.open) return a.open < b.open;
  if (a.lastTurn !== b.lastTurn) return a.lastTurn < b.lastTurn;
  return a.userId < b.userId;
}
