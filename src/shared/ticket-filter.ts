import type { TicketStatus } from "./contracts/tickets";
import { can } from "./permissions";

/** The filters of a ticket list, as GET /tickets takes them (search and dates aside, see `ticketInList`). */
export interface TicketListFilter {
  status?: TicketStatus;
  /** Every user's tickets instead of only one's own and the pending ones; honoured only with the permission. */
  showAll?: boolean;
  /** Only these queues (queue-less tickets always pass); absent means every queue the viewer may see. */
  queueIds?: readonly number[];
  /** Only tickets carrying every one of these tags. */
  tags?: readonly number[];
  /** Only the snoozed tickets, which every other list leaves out. */
  snoozed?: boolean;
}

/** Who looks at the list: agents see their queues, queue-less tickets and tickets assigned to them. */
export interface TicketListViewer {
  id: number;
  profile: string;
  queueIds: readonly number[];
}

/** The fields of a ticket the list filters look at. */
export interface ListedTicket {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  tags: readonly { id: number }[];
  snoozedUntil?: Date | string | null;
}

/**
 * Whether `ticket` belongs in the list `filter` describes for `viewer`: the same rule the list query applies in
 * SQL, so a list that follows the socket keeps exactly the tickets a reload would show. A text search is not
 * re-applied here: the server also matches message text, which a ticket event does not carry.
 */
export function ticketInList(ticket: ListedTicket, filter: TicketListFilter, viewer: TicketListViewer): boolean {
  if (!queueVisible(ticket, filter.queueIds, viewer)) return false;
  const showAll = filter.showAll === true && can(viewer.profile, "tickets-manager:showall");
  if (!showAll && ticket.userId !== viewer.id && ticket.status !== "pending") return false;
  if (filter.status && ticket.status !== filter.status) return false;
  if (Boolean(filter.snoozed) !== (ticket.snoozedUntil != null)) return false;
  return (filter.tags ?? []).every((id) => ticket.tags.some((tag) => tag.id === id));
}

/** Queue isolation: managers see every queue (or the picked ones); agents the picked ones among their own. */
function queueVisible(ticket: ListedTicket, queueIds: readonly number[] | undefined, viewer: TicketListViewer) {
  if (ticket.queueId == null) return true;
  if (can(viewer.profile, "tickets-manager:showall")) return !queueIds || queueIds.includes(ticket.queueId);
  const allowed = queueIds ? queueIds.filter((q) => viewer.queueIds.includes(q)) : viewer.queueIds;
  return allowed.includes(ticket.queueId) || ticket.userId === viewer.id;
}
