import type { Reader } from "../../db/client";
import type { TicketEventRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { NamedRef, TicketEventDto, TicketEventSide } from "../../shared/contracts/ticket-events";
import { connectionSummaries } from "../connections/lookup";
import { queueSummaries } from "../queues/lookup";
import { userNames } from "../users/lookup";
import { HANDING_KINDS } from "./history";

/**
 * Events with the names of the users, queues and connections they name: one query for each of the three,
 * whatever the number of events, and none for a kind of thing no event names.
 */
export async function toTicketEventDtos(
  db: Reader,
  rows: readonly TicketEventRow[],
  knownUsers: readonly { id: number; name: string }[] = [],
): Promise<TicketEventDto[]> {
  const idsOf = (pick: (row: TicketEventRow) => (number | null)[]) => [
    ...new Set(rows.flatMap(pick).filter((id): id is number => id != null)),
  ];
  const userIds = idsOf((r) => [r.actorUserId, r.fromUserId, r.toUserId]);
  const queueIds = idsOf((r) => [r.fromQueueId, r.toQueueId]);
  const connectionIds = idsOf((r) => [r.fromWhatsappId, r.toWhatsappId]);
  const users = namesById([...knownUsers]);
  for (const { id, name } of await userNames(
    db,
    userIds.filter((id) => !users.has(id)),
  ))
    users.set(id, name);
  const queues = namesById(await queueSummaries(db, queueIds));
  const connections = namesById(await connectionSummaries(db, connectionIds));
  const ref = (names: Map<number, string>, id: number | null): NamedRef | null =>
    id == null ? null : { id, name: names.get(id) ?? null };
  const side = (
    status: TicketEventSide["status"],
    userId: number | null,
    queueId: number | null,
    whatsappId: number | null,
  ): TicketEventSide => ({
    status,
    user: ref(users, userId),
    queue: ref(queues, queueId),
    connection: ref(connections, whatsappId),
  });
  return rows.map((row) => ({
    id: row.id,
    ticketId: row.ticketId,
    kind: row.kind,
    cause: row.cause,
    at: row.at,
    actor: ref(users, row.actorUserId),
    from: side(row.fromStatus, row.fromUserId, row.fromQueueId, row.fromWhatsappId),
    to: side(row.toStatus, row.toUserId, row.toQueueId, row.toWhatsappId),
    // The mark of a first agent is the reports' own (see recordTicketEvent), not a figure of the change.
    value: (HANDING_KINDS as readonly string[]).includes(row.kind) ? null : row.value,
  }));
}

const namesById = (rows: { id: number; name: string }[]) => new Map(rows.map((r) => [r.id, r.name]));

/**
 * Tells the open chats of these events' tickets (after the change's commit, or into the batch that holds events
 * until it): each becomes a separator between the chat's bubbles.
 */
export async function announceTicketEvents(
  deps: Pick<AppDeps, "db" | "events">,
  rows: readonly TicketEventRow[],
  knownUsers: readonly { id: number; name: string }[] = [],
) {
  if (!rows.length) return;
  for (const event of await toTicketEventDtos(deps.db, rows, knownUsers)) deps.events.emit("ticket.event", { event });
}
