import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { atomically, first, type Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type ConnectionRow, storedInstant, type TicketEventRow, type TicketRow, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { FALLBACK } from "../../i18n/shared";
import { defaultCsatMessage } from "../connections/csat-default";
import { sendTicketText } from "../messages/send";
import { recordTicketEvent } from "./history";
import { atOrAfterSince, chatTickets, latestBy, lockContactTickets } from "./records";

/** How long after the survey a rating counts as its answer. */
export const CSAT_ANSWER_MS = 24 * 3600_000;
/** How long after the rating the customer's next message counts as its comment. */
export const CSAT_COMMENT_MS = 10 * 60_000;

/**
 * Sends the connection's satisfaction survey after an agent resolved `ticket` (after the farewell, as an automatic
 * message, so it counts as no agent's reply), when the connection asks for it. The time asked is written first,
 * so an answer arriving at once already finds it; a survey asked again replaces the earlier answer.
 */
export async function askForRating(deps: AppDeps, ticket: TicketRow, connection: ConnectionRow) {
  if (!connection.csatEnabled) return;
  await deps.db
    .update(tickets)
    .set({
      csatAskedAt: new Date(deps.clock.now()),
      csatRating: null,
      csatComment: null,
      csatAnsweredAt: null,
      updatedAt: ticket.updatedAt,
    })
    .where(eq(tickets.id, ticket.id));
  const template = connection.csatMessage.trim() ? connection.csatMessage : defaultCsatMessage(FALLBACK);
  try {
    await sendTicketText(deps, ticket, template, { auto: true });
  } catch (error) {
    deps.log.warn("satisfaction survey not sent", { ticketId: ticket.id, error });
  }
}

/** A rating 1–5 written as one digit or as that many stars (⭐), or null for anything else. */
export function ratingOf(text: string): number | null {
  const answer = text.trim().replace(/\uFE0F/g, "");
  if (/^[1-5]$/.test(answer)) return Number(answer);
  if (/^⭐{1,5}$/u.test(answer)) return [...answer].length;
  return null;
}

/** What an inbound message was to the survey: the rating (with its history event) or the comment after it. */
export interface SurveyAnswer {
  ticket: TicketRow;
  event?: TicketEventRow;
}

/**
 * Takes an inbound text as the answer to the survey of the contact's last resolved ticket on the connection: a
 * rating within 24 h of the survey, or the next message within 10 minutes of the rating as its comment. Only while
 * the contact has no open or waiting ticket there. Written in the caller's transaction (the message's), under the
 * lock inbound messages take to find or create the contact's ticket; undefined when the text is no answer. With
 * `lockedWithoutActive` the caller already holds that lock and found no open or waiting ticket (lockedActiveTicket).
 */
export async function takeSurveyAnswer(
  deps: Pick<AppDeps, "db" | "clock">,
  key: { contactId: number; whatsappId: number },
  text: string,
  opts: { lockedWithoutActive?: boolean } = {},
): Promise<SurveyAnswer | undefined> {
  const now = deps.clock.now();
  // Most messages answer no survey: one read settles that, before any lock.
  const asked = await surveyedTicket(deps.db, key, now);
  if (!asked || (asked.csatRating == null && ratingOf(text) == null)) return undefined;
  return await atomically(deps.db, async (tx) => {
    // `lockedWithoutActive`: the caller's transaction holds the lock and found no active ticket, before `asked`.
    if (!opts.lockedWithoutActive) {
      await lockContactTickets(tx, key.contactId);
      const active = await first(
        tx
          .select({ id: tickets.id })
          .from(tickets)
          .where(
            and(
              eq(tickets.contactId, key.contactId),
              eq(tickets.whatsappId, key.whatsappId),
              inArray(tickets.status, ["open", "pending"]),
            ),
          ),
      );
      if (active) return undefined;
    }
    const surveyed = opts.lockedWithoutActive ? asked : await surveyedTicket(tx, key, now);
    if (!surveyed) return undefined;
    const rating = ratingOf(text);
    if (surveyed.csatRating == null && rating != null) {
      const [ticket] = await tx
        .update(tickets)
        .set({ csatRating: rating, csatAnsweredAt: new Date(now), updatedAt: surveyed.updatedAt })
        .where(eq(tickets.id, surveyed.id))
        .returning();
      const event = await recordTicketEvent(tx, {
        ticketId: surveyed.id,
        kind: "rated",
        cause: "customer",
        at: new Date(now),
        actorUserId: null,
        before: surveyed,
        after: surveyed,
        value: rating,
      });
      return { ticket: ticket!, event };
    }
    const answeredAt = surveyed.csatAnsweredAt?.getTime();
    if (answeredAt == null || surveyed.csatComment != null || now - answeredAt > CSAT_COMMENT_MS || !text.trim())
      return undefined;
    const [ticket] = await tx
      .update(tickets)
      .set({ csatComment: text.trim().slice(0, 2000), updatedAt: surveyed.updatedAt })
      .where(eq(tickets.id, surveyed.id))
      .returning();
    return { ticket: ticket! };
  });
}

/** The chat's last ticket surveyed in the last 24 h, if it is still resolved. */
async function surveyedTicket(
  db: Reader,
  key: { contactId: number; whatsappId: number },
  now: number,
): Promise<TicketRow | undefined> {
  const rows = (await surveyedSince(db).all({ ...key, since: storedInstant(now - CSAT_ANSWER_MS) })) as TicketRow[];
  const row = latestBy(rows, (ticket) => ticket.csatAskedAt?.getTime() ?? 0);
  return row?.status === "closed" ? row : undefined;
}

const surveyedSince = prepared((db) =>
  chatTickets(db, isNotNull(tickets.csatAskedAt), atOrAfterSince(tickets.csatAskedAt)),
);
