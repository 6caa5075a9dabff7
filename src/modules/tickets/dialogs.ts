import { eq, sql } from "drizzle-orm";
import { atomically, first, type Writer } from "../../db/client";
import { eachId, gathered, lookupEachKey } from "../../db/gathered";
import { pgArray } from "../../db/pg-array";
import { prepared } from "../../db/prepared";
import { ticketDialogs, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";

/** Where the bot stands in a ticket's conversation: menu sent, chatbot node, invalid answers, out-of-work notice. */
export type Dialog = typeof ticketDialogs.$inferSelect;

const dialogOf = prepared((db) =>
  db
    .select()
    .from(ticketDialogs)
    .where(eq(ticketDialogs.ticketId, sql.placeholder("ticketId")))
    .prepare(),
);

const dialogsEachTicket = prepared((db) =>
  lookupEachKey(db, eachId("ids"), db.select().from(ticketDialogs).where(sql`${ticketDialogs.ticketId} = k.id`)),
);

/**
 * The ticket's bot dialog, if the bot has spoken in it; read with the others asked for together (see gathered,
 * readTogether).
 */
export const gatheredDialog = gathered<number, Dialog>({
  idOf: String,
  one: (db, ticketId) => dialogOf(db).get({ ticketId }),
  many: async (tx, ticketIds) => {
    const rows = (await dialogsEachTicket(tx).all({ ids: pgArray(ticketIds) })) as Dialog[];
    return new Map(rows.map((row) => [String(row.ticketId), row]));
  },
});

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

/**
 * The chatbot gives up on a ticket after `invalidAnswers` invalid answers in a row: the ticket leaves the bot and
 * waits where it is for a person, and its history says why (`bot_stopped`). The dialog keeps the count, which tells
 * the bot to stay silent until a person takes the ticket or it returns to the bot.
 */
export async function stopChatbot(
  deps: Pick<AppDeps, "db" | "events" | "clock">,
  ticketId: number,
  invalidAnswers: number,
) {
  const at = new Date(deps.clock.now());
  const event = await atomically(deps.db, async (tx) => {
    await saveDialog(tx, ticketId, { invalidCount: invalidAnswers, chatbotId: null });
    const row = await first(
      tx
        .update(tickets)
        .set({ isBot: false, updatedAt: sql`${tickets.updatedAt}` })
        .where(eq(tickets.id, ticketId))
        .returning(),
    );
    if (!row) return undefined;
    return await recordTicketEvent(tx, {
      ticketId,
      kind: "bot_stopped",
      cause: "chatbot",
      at,
      actorUserId: null,
      before: row,
      after: row,
      value: invalidAnswers,
    });
  });
  if (event) await announceTicketEvents(deps, [event]);
}
