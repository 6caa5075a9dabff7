import { atomically, type Db, first } from "../../db/client";
import { and, asc, eq } from "drizzle-orm";
import { optOuts, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { notFound } from "../../errors";
import { connectionSummaries, findConnection } from "../connections/lookup";
import { autoText } from "../../i18n/server";
import { contactChat } from "../contacts/lookup";
import { sendTicketText } from "../messages/send";

/** True when the number sent the connection's opt-out keyword (and it was not cleared since). */
export async function isOptedOut(db: Db, connectionId: number, number: string): Promise<boolean> {
  return !!(await first(
    db
      .select({ id: optOuts.id })
      .from(optOuts)
      .where(and(eq(optOuts.whatsappId, connectionId), eq(optOuts.number, number))),
  ));
}

const keywordOf = (text: string) => text.trim().toLocaleLowerCase();

/**
 * Whether an inbound 1:1 text is the connection's opt-out `keyword` (case and surrounding spaces aside): it puts
 * the number on the connection's opt-out list (optOut).
 */
export function isOptOutKeyword(keyword: string, body: string): boolean {
  return !!keywordOf(keyword) && keywordOf(body) === keywordOf(keyword);
}

/** Puts the number on the connection's opt-out list and sends the confirmation. */
export async function optOut(deps: AppDeps, connectionId: number, ticket: TicketRow, number: string) {
  const added = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .insert(optOuts)
          .values({ whatsappId: connectionId, number, createdAt: new Date(deps.clock.now()) })
          .onConflictDoNothing()
          .returning(),
      ),
  );
  if (added) deps.events.emit("optOut.created", { optOut: added });
  const language = (await findConnection(deps.db, connectionId))?.language ?? "pt";
  await sendTicketText(deps, ticket, autoText(language, "optOutConfirmation"), { auto: true });
}

async function contactNumber(db: Db, contactId: number): Promise<string | null> {
  const contact = await contactChat(db, contactId);
  if (!contact) throw notFound("ERR_NO_CONTACT_FOUND");
  return contact.number;
}

/** The connections the contact opted out of bulk messages on, for the contact drawer. */
export async function listContactOptOuts(db: Db, contactId: number) {
  const number = await contactNumber(db, contactId);
  if (!number) return [];
  const rows = await db.select().from(optOuts).where(eq(optOuts.number, number)).orderBy(asc(optOuts.id));
  const names = new Map(
    (
      await connectionSummaries(
        db,
        rows.map((r) => r.whatsappId),
      )
    ).map((c) => [c.id, c.name]),
  );
  return rows.flatMap(({ whatsappId, createdAt }) => {
    const whatsappName = names.get(whatsappId);
    return whatsappName === undefined ? [] : [{ whatsappId, whatsappName, createdAt }];
  });
}

/** Takes the contact off the connection's opt-out list: later campaigns reach them again. */
export async function clearContactOptOut(deps: AppDeps, contactId: number, connectionId: number) {
  const number = await contactNumber(deps.db, contactId);
  const removed = number
    ? await atomically(
        deps.db,
        async (tx) =>
          await first(
            tx
              .delete(optOuts)
              .where(and(eq(optOuts.whatsappId, connectionId), eq(optOuts.number, number)))
              .returning(),
          ),
      )
    : undefined;
  if (!removed) throw notFound("ERR_NO_OPT_OUT_FOUND");
  deps.events.emit("optOut.deleted", { optOut: removed });
}
