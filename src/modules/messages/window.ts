import { and, eq, max } from "drizzle-orm";
import { first } from "../../db/client";
import { epochMs, messages, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";

/** How long after a customer's message the Cloud API still takes free-form messages to them. */
export const CUSTOMER_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The Cloud API delivers free-form messages only within 24 h of the customer's last message (then only approved
 * templates): on a cloud connection a send outside that window is refused here, before anything is stored or sent.
 */
export async function assertCustomerWindow(deps: AppDeps, connectionId: number, contactId: number) {
  if (await outsideCustomerWindow(deps, connectionId, contactId)) throw new AppError("ERR_OUTSIDE_24H_WINDOW", 400);
}

/** True when the connection takes only templates for this contact (a cloud one, and no message from them in 24 h). */
export async function outsideCustomerWindow(deps: AppDeps, connectionId: number, contactId: number | undefined) {
  if ((await deps.channels.providerOf(connectionId)) !== "cloud") return false;
  const last = contactId === undefined ? undefined : await lastCustomerMessageAt(deps, connectionId, contactId);
  return last == null || deps.clock.now() - last > CUSTOMER_WINDOW_MS;
}

/** When the contact last wrote on the connection (epoch ms), if ever. */
async function lastCustomerMessageAt(deps: AppDeps, connectionId: number, contactId: number) {
  const row = await first(
    deps.db
      .select({ at: max(epochMs(messages.createdAt)) })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(and(eq(tickets.contactId, contactId), eq(messages.whatsappId, connectionId), eq(messages.fromMe, false))),
  );
  return row?.at == null ? undefined : Number(row.at);
}
