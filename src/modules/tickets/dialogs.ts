import { eq, sql } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { ticketDialogs } from "../../db/tables";

/** Where the bot stands in a ticket's conversation: menu sent, chatbot node, invalid answers, out-of-work notice. */
export type Dialog = typeof ticketDialogs.$inferSelect;

/** The ticket's bot dialog, if the bot has spoken in it. */
export async function loadDialog(db: Writer, ticketId: number): Promise<Dialog | undefined> {
  return await dialogOf(db).get({ ticketId });
}

const dialogOf = prepared((db) =>
  db
    .select()
    .from(ticketDialogs)
    .where(eq(ticketDialogs.ticketId, sql.placeholder("ticketId")))
    .prepare(),
);

/** Writes these fields of the ticket's bot dialog, creating it when missing. */
export async function saveDialog(db: Writer, ticketId: number, values: Partial<Omit<Dialog, "ticketId">>) {
  await db
    .insert(ticketDialogs)
    .values({ ticketId, ...values })
    .onConflictDoUpdate({ target: ticketDialogs.ticketId, set: values });
}

/** Back to the top of the menus: no chatbot node, no invalid answers. */
export async function clearDialog(db: Writer, ticketId: number) {
  await db.update(ticketDialogs).set({ chatbotId: null, invalidCount: 0 }).where(eq(ticketDialogs.ticketId, ticketId));
}
