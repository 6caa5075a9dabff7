import { atomically, type Db, first, one, type Writer } from "../../db/client";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { gathered, lookupEachKey } from "../../db/gathered";
import { pgArray } from "../../db/pg-array";
import { prepared } from "../../db/prepared";
import type { AppDeps } from "../../deps";
import { storedInstant, type TicketRow, tickets } from "../../db/tables";
import { getSetting } from "../settings/service";
import type { ContactSummary } from "../contacts/lookup";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { recordCreation, recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { atOrAfterSince, chatTickets, latestBy, lockContactTickets, lockContactsTickets } from "./records";
import { newEpisode } from "./response-clock";
import { toTicketDto } from "./serialize";

export interface TicketLookup {
  contactId: number;
  whatsappId: number;
  isGroup: boolean;
}

export interface FoundTicket {
  ticket: TicketRow;
  /** `created` or `reopened` when the ticket (re)entered the lists; null when an open/pending one was reused. */
  change: "created" | "reopened" | null;
}

const FALLBACK_WINDOW_S = 7200;

/**
 * FindOrCreateTicket: reuse the open/pending ticket of (contact, connection);
 * groups reuse their latest ticket; 1:1 chats reopen the latest ticket updated within `timeCreateNewTicket`
 * seconds; otherwise a new pending bot ticket. Synchronous, in one transaction; callers serialise per chat.
 * A reopen or a creation goes into the ticket's history as made by `cause` (the customer writing, a schedule…),
 * and is announced once committed. `contact`: the contact of `contactId`, and `active`: what lockedActiveTicket
 * answered (null: none), when the caller read them in the same transaction.
 */
export async function findOrCreateTicket(
  deps: AppDeps,
  {
    cause,
    contact,
    active: known,
    ...key
  }: TicketLookup & { cause: TicketEventCause; contact?: ContactSummary; active?: TicketRow | null },
): Promise<FoundTicket> {
  const found = await atomically(deps.db, async (tx) => {
    const active = known !== undefined ? known : await lockedActiveTicket(tx, key);
    if (active) return { ticket: active, change: null };

    const seconds = Number.parseInt(await getSetting(deps.db, "timeCreateNewTicket"), 10);
    const windowMs = (Number.isFinite(seconds) ? seconds : FALLBACK_WINDOW_S) * 1000;
    // Groups reuse their latest ticket whenever it was last active.
    const since = storedInstant(key.isGroup ? 0 : deps.clock.now() - windowMs);
    const recent = latest(
      (await ticketsActiveSince(tx).all({
        contactId: key.contactId,
        whatsappId: key.whatsappId,
        since,
      })) as TicketRow[],
    );
    const now = new Date(deps.clock.now());
    if (recent) {
      const ticket = (await first(
        tx
          .update(tickets)
          .set({ status: "pending", userId: null, isBot: true, updatedAt: now, ...newEpisode(now) })
          .where(eq(tickets.id, recent.id))
          .returning(),
      ))!;
      const event = await recordTicketEvent(tx, {
        ticketId: ticket.id,
        kind: "reopened",
        cause,
        at: now,
        actorUserId: null,
        before: recent,
        after: ticket,
      });
      return { ticket, change: "reopened" as const, event };
    }

    const ticket = (await insertTicket(tx).get({
      contactId: key.contactId,
      whatsappId: key.whatsappId,
      isGroup: key.isGroup,
      now,
    }))!;
    await recordCreation(tx, ticket, cause);
    return { ticket, change: "created" as const };
  });
  // A ticket that (re)entered the lists is announced to them; its reopen also to its open chats (no chat of a
  // new ticket can be open yet).
  if (found.change) {
    const known = { contacts: contact ? [contact] : [], created: found.change === "created" };
    deps.events.emit("ticket.updated", { ticket: await toTicketDto(deps.db, found.ticket, known) });
  }
  if (found.event) await announceTicketEvents(deps, [found.event]);
  return { ticket: found.ticket, change: found.change };
}

/**
 * The open or pending ticket of (contact, connection), read under the contact's ticket lock, which the caller's
 * transaction then holds: nodes sharing a database take turns per contact, as SQLite's single writer makes them.
 */
export async function lockedActiveTicket(
  tx: Writer,
  key: Omit<TicketLookup, "isGroup">,
): Promise<TicketRow | undefined> {
  return await gatheredActiveTicket(tx, { contactId: key.contactId, whatsappId: key.whatsappId });
}

/**
 * The active tickets of a batch's chats: their contacts' ticket locks taken in one statement, in the order of
 * their keys (as every batch takes them, so two nodes' batches never wait on each other in a circle), then the
 * tickets read in one.
 */
const gatheredActiveTicket = gathered<Omit<TicketLookup, "isGroup">, TicketRow>({
  idOf: ({ contactId, whatsappId }) => `${contactId}:${whatsappId}`,
  one: async (tx, key) => {
    await lockContactTickets(tx as Writer, key.contactId);
    return latest(await activeTicketsOf(tx).all(key));
  },
  many: async (tx, keys) => {
    await lockContactsTickets(
      tx,
      [...new Set(keys.map((key) => key.contactId))].sort((a, b) => a - b),
    );
    const rows = (await activeTicketsOfChats(tx).all({
      contactIds: pgArray(keys.map((key) => key.contactId)),
      whatsappIds: pgArray(keys.map((key) => key.whatsappId)),
    })) as TicketRow[];
    const byChat = Map.groupBy(rows, (row) => `${row.contactId}:${row.whatsappId}`);
    const found = new Map<string, TicketRow>();
    for (const [id, list] of byChat) found.set(id, latest(list)!);
    return found;
  },
});

const activeTicketsOfChats = prepared((db) =>
  lookupEachKey(
    db,
    sql`unnest(${sql.placeholder("contactIds")}::int[], ${sql.placeholder("whatsappIds")}::int[]) as k(contact_id, whatsapp_id)`,
    db
      .select()
      .from(tickets)
      .where(
        and(
          sql`${tickets.contactId} = k.contact_id`,
          sql`${tickets.whatsappId} = k.whatsapp_id`,
          eq(tickets.channel, "whatsapp"),
          inArray(tickets.status, ["open", "pending"]),
        ),
      ),
  ),
);

/** The tickets of (contact, connection) updated at or after `since` (epoch ms). */
const ticketsActiveSince = prepared((db) =>
  chatTickets(db, eq(tickets.channel, "whatsapp"), atOrAfterSince(tickets.updatedAt)),
);

/** A new pending bot ticket. */
const insertTicket = prepared((db) =>
  db
    .insert(tickets)
    .values({
      contactId: sql.placeholder("contactId"),
      whatsappId: sql.placeholder("whatsappId"),
      isGroup: sql.placeholder("isGroup"),
      isBot: true,
      status: "pending",
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    } as unknown as typeof tickets.$inferInsert)
    .returning()
    .prepare(),
);

/** The open and pending tickets of (contact, connection): one as a rule; `latest` picks among them. */
const activeTicketsOf = prepared((db) =>
  chatTickets(db, eq(tickets.channel, "whatsapp"), inArray(tickets.status, ["open", "pending"])),
);

/** The ticket with the latest activity (the highest id among equals). */
function latest(rows: TicketRow[]): TicketRow | undefined {
  return latestBy(rows, (row) => row.updatedAt.getTime());
}

/** The chat's history ticket on this connection, created closed at `at` (its first message) when there is none. */
export async function historyTicket(db: Db, key: TicketLookup, at: number): Promise<TicketRow> {
  return await atomically(db, async (tx) => {
    const existing = await first(
      tx
        .select()
        .from(tickets)
        .where(
          and(
            eq(tickets.contactId, key.contactId),
            eq(tickets.whatsappId, key.whatsappId),
            eq(tickets.fromHistory, true),
          ),
        )
        .orderBy(desc(tickets.id)),
    );
    if (existing) return existing;
    return await one(
      tx
        .insert(tickets)
        .values({
          contactId: key.contactId,
          whatsappId: key.whatsappId,
          isGroup: key.isGroup,
          status: "closed",
          isBot: false,
          fromHistory: true,
          createdAt: new Date(at),
          updatedAt: new Date(at),
        })
        .returning(),
    );
  });
}
