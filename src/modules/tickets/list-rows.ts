import type { Db } from "../../db/client";
import { amongIdList, idList } from "../../db/index-hints";
import { prepared } from "../../db/prepared";
import { type TicketRow, tickets } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";
import type { TicketPageDto } from "../../shared/contracts/tickets";
import { can } from "../../shared/permissions";
import type { TicketListParams } from "./list-filter";

export const TICKET_PAGE_SIZE = 40;

/** A list's page before its tickets are serialised. */
export type RowPage = Omit<TicketPageDto, "tickets"> & { rows: TicketRow[] };

/**
 * What makes two lists one prepared shape: the user's show-all right, the status, the filters present and how many
 * tags are picked.
 */
export function shapeKey(user: AuthUser, params: TicketListParams, offset: number) {
  const { status, showAll, withUnreadMessages, snoozed, slaBreached } = params;
  const present = [!params.queueIds, !params.before, !params.date, !params.updatedAt, !offset];
  const filters = [status, showAll, withUnreadMessages, snoozed, slaBreached, new Set(params.tags).size, ...present];
  return JSON.stringify([can(user.profile, "tickets-manager:showall"), ...filters.map((f) => f ?? null)]);
}

/** The queries of a list's shape, made the first time the shape is met. */
export function shapeFor<S>(shapes: Map<string, S>, key: string, make: () => S): S {
  let shape = shapes.get(key);
  if (!shape) shapes.set(key, (shape = make()));
  return shape;
}

/** The page at `offset` of tickets listed by id in page order, and whether more follow. */
export async function pageOf(db: Db, ids: number[], offset: number) {
  const slice = ids.slice(offset, offset + TICKET_PAGE_SIZE + 1);
  const pageIds = slice.slice(0, TICKET_PAGE_SIZE);
  return { rows: await ticketsInOrder(db, pageIds), hasMore: slice.length > pageIds.length };
}

/** The tickets of `ids`, in that order. */
export async function ticketsInOrder(db: Db, ids: number[]) {
  const rows = ids.length ? await ticketsByIds(db).all({ ids: idList(ids) }) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const ticketsByIds = prepared((db) => db.select().from(tickets).where(amongIdList(tickets.id, "ids")).prepare());
