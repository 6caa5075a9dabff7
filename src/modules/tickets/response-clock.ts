import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { storedInstant, type TicketEventRow, type TicketRow, tickets } from "../../db/tables";
import { recordTicketEvent } from "./history";

/**
 * A ticket's episodes: the first runs from its creation, each later one from a reopening. In an episode the
 * customer's first message starts the first-response clock (`waitingSince`) and the first message an agent types
 * after it stops it, once; the episode's resolution runs from its start to the resolve.
 */

/** When the ticket's current episode began. */
export function episodeStart(ticket: Pick<TicketRow, "episodeStartedAt" | "createdAt">): Date {
  return ticket.episodeStartedAt ?? ticket.createdAt;
}

/** What a reopening at `at` writes on the ticket: a new episode, with nothing waited, answered or breached yet. */
export function newEpisode(at: Date) {
  return {
    episodeStartedAt: at,
    waitingSince: null,
    firstResponseAt: null,
    firstResponseBreached: false,
    resolutionBreached: false,
  };
}

/** The milliseconds from the episode's start to a resolve at `at` (the `value` of a `resolved` event). */
export function resolutionMs(before: Pick<TicketRow, "episodeStartedAt" | "createdAt">, at: Date): number {
  return Math.max(0, at.getTime() - episodeStart(before).getTime());
}

/**
 * Records the episode's first response when `agentId`'s message at `at` is the first an agent typed since the
 * customer wrote: in the message's transaction, before its ticket stops waiting. Once per episode: the claim of
 * `firstResponseAt` decides between agents replying at once.
 */
export async function recordFirstResponse(
  tx: Writer,
  ticketId: number,
  agentId: number,
  at: Date,
): Promise<TicketEventRow | undefined> {
  const ticket = await claimFirstResponse(tx).get({ ticketId, at: storedInstant(at) });
  if (!ticket?.waitingSince) return undefined;
  return await recordTicketEvent(tx, {
    ticketId,
    kind: "first_response",
    cause: "agent",
    at,
    actorUserId: agentId,
    before: ticket,
    after: ticket,
    value: Math.max(0, at.getTime() - ticket.waitingSince.getTime()),
  });
}

const claimFirstResponse = prepared((db) =>
  db
    .update(tickets)
    // The message's own update moves the ticket's time; this one keeps it.
    .set({ firstResponseAt: sql`${sql.placeholder("at")}`, updatedAt: sql`${tickets.updatedAt}` })
    .where(
      and(
        eq(tickets.id, sql.placeholder("ticketId")),
        isNull(tickets.firstResponseAt),
        isNotNull(tickets.waitingSince),
      ),
    )
    .returning()
    .prepare(),
);
