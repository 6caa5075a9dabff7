import { atomically, first, one } from "../../db/client";
import { indexNewContacts, indexNewMessages } from "../../db/search-index";
import { existsSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { contactExtraInfo, contacts, messages, schedules, tickets, ticketTags } from "../../db/tables";
import { copyPrivateFile, makePrivateDir } from "../../private-files";
import { eachNew, freeId, linkRows, type StepContext } from "./setup-steps";
import type { SourceRow } from "./source";
import {
  count,
  date,
  flag,
  mediaType,
  optionalDate,
  optionalText,
  scheduleStatus,
  sourceId,
  text,
  ticketStatus,
} from "./values";

export async function importContacts(ctx: StepContext) {
  await eachNew(ctx, "Contacts", async (row, tx) => {
    const number = text(row.number).replace(/[^\d-]/g, "");
    if (!number) return null;
    const same = await first(tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.number, number)));
    if (same) return { id: same.id, outcome: "existing" };
    const inserted = await one(
      tx
        .insert(contacts)
        .values({
          id: await freeId(ctx.db, "contacts", row.id),
          name: text(row.name) || number,
          number,
          email: text(row.email),
          profilePicUrl: text(row.profilePicUrl),
          isGroup: flag(row.isGroup),
          createdAt: date(row.createdAt, ctx.now),
        })
        .returning({ id: contacts.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
  // The imported contacts go into the name and number index at once (see db/search-index.ts).
  await atomically(ctx.db, (tx) => indexNewContacts(tx));
  await eachNew(ctx, "ContactCustomFields", async (row, tx) => {
    const contactId = await ctx.ledger.target("Contacts", row.contactId);
    if (!contactId || !text(row.name)) return null;
    const inserted = await one(
      tx
        .insert(contactExtraInfo)
        .values({ contactId, name: text(row.name), value: text(row.value) })
        .returning({ id: contactExtraInfo.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
}

export async function importTickets(ctx: StepContext) {
  const { ledger } = ctx;
  await eachNew(ctx, "Tickets", async (row, tx) => {
    const contactId = await ledger.target("Contacts", row.contactId);
    if (!contactId) return null;
    const createdAt = date(row.createdAt, ctx.now);
    const inserted = await one(
      tx
        .insert(tickets)
        .values({
          id: await freeId(ctx.db, "tickets", row.id),
          status: ticketStatus(row.status),
          contactId,
          userId: (await ledger.target("Users", row.userId)) ?? null,
          queueId: (await ledger.target("Queues", row.queueId)) ?? null,
          whatsappId: (await ledger.target("Whatsapps", row.whatsappId)) ?? null,
          isGroup: flag(row.isGroup),
          isBot: flag(row.isBot),
          unreadMessages: count(row.unreadMessages),
          lastMessage: text(row.lastMessage),
          createdAt,
          updatedAt: date(row.updatedAt, createdAt),
        })
        .returning({ id: tickets.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
  await linkRows(ctx, "TicketTags", await ctx.source.all("TicketTags"), async (row) => {
    const ticketId = await ledger.target("Tickets", row.ticketId);
    const tagId = await ledger.target("Tags", row.tagId);
    if (!ticketId || !tagId) return false;
    return (
      (await first(ctx.db.insert(ticketTags).values({ ticketId, tagId }).onConflictDoNothing().returning())) !==
      undefined
    );
  });
}

const FILE_KINDS = new Set(["image", "audio", "video", "document", "sticker"]);

/**
 * Messages keep WhatsApp's ids, so a second run (or WhatsApp delivering one again later) finds them. Their files
 * are copied from the old installation's public folder when it is given (`mediaDir`); a file that is not there
 * leaves the message with its name, shown as unavailable.
 */
export async function importMessages(ctx: StepContext, opts: { from?: string; to: string }) {
  const { db, ledger } = ctx;
  const connectionOf = new Map(
    (await db.select({ id: tickets.id, whatsappId: tickets.whatsappId }).from(tickets)).map((t) => [
      t.id,
      t.whatsappId,
    ]),
  );
  const exists = async (whatsappId: number | null, wid: string) =>
    await first(
      db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            whatsappId == null ? isNull(messages.whatsappId) : eq(messages.whatsappId, whatsappId),
            eq(messages.wid, wid),
          ),
        ),
    );
  const quotes: { id: number; whatsappId: number | null; quoted: string }[] = [];
  for await (const page of ctx.source.rows("Messages")) {
    const fresh: { row: SourceRow; ticketId: number; whatsappId: number | null }[] = [];
    for (const row of page) {
      const ticketId = await ledger.target("Tickets", row.ticketId);
      if (!ticketId) ledger.count("Messages", "skipped");
      else if (await exists(connectionOf.get(ticketId) ?? null, sourceId(row.id))) ledger.count("Messages", "existing");
      else fresh.push({ row, ticketId, whatsappId: connectionOf.get(ticketId) ?? null });
    }
    await atomically(db, async (tx) => {
      for (const { row, ticketId, whatsappId } of fresh) {
        const kind = mediaType(row.mediaType);
        const file = FILE_KINDS.has(kind) ? copyMedia(text(row.mediaUrl), opts) : null;
        const inserted = await one(
          tx
            .insert(messages)
            .values({
              wid: sourceId(row.id),
              whatsappId,
              ticketId,
              contactId: (await ledger.target("Contacts", row.contactId)) ?? null,
              body: text(row.body),
              fromMe: flag(row.fromMe),
              read: flag(row.read),
              ack: count(row.ack),
              mediaType: kind,
              mediaUrl: file?.stored ?? null,
              fileName: file?.name ?? null,
              mediaState: file && !file.stored ? "unavailable" : null,
              isDeleted: flag(row.isDeleted),
              remoteJid: optionalText(row.remoteJid),
              participant: optionalText(row.participant),
              dataJson: optionalText(row.dataJson),
              createdAt: date(row.createdAt, ctx.now),
            })
            .returning({ id: messages.id }),
        );
        if (row.quotedMsgId != null) quotes.push({ id: inserted.id, whatsappId, quoted: sourceId(row.quotedMsgId) });
        ledger.count("Messages", "imported");
      }
      // The page's messages go into the full-text index at once, before the commit, as the inbox's own writers
      // do (db/search-index.ts): a search would otherwise index the whole import when it first runs.
      await indexNewMessages(tx);
    });
  }
  await atomically(db, async (tx) => {
    for (const quote of quotes) {
      const quoted = await exists(quote.whatsappId, quote.quoted);
      if (quoted) await tx.update(messages).set({ quotedMsgId: quoted.id }).where(eq(messages.id, quote.id));
    }
  });
}

/** Copies a whaticket media file (a bare file name in its public folder) under a new private name here. */
function copyMedia(
  stored: string,
  opts: { from?: string; to: string },
): { name: string; stored: string | null } | null {
  const name = basename(stored);
  if (!name) return null;
  const source = opts.from ? join(opts.from, name) : "";
  if (!source || !existsSync(source)) return { name, stored: null };
  makePrivateDir(opts.to);
  const copy = `${crypto.randomUUID()}${
    extname(name)
      .toLowerCase()
      .match(/^\.[a-z0-9]{1,8}$/)?.[0] ?? ".bin"
  }`;
  copyPrivateFile(source, join(opts.to, copy));
  return { name, stored: copy };
}

export async function importSchedules(ctx: StepContext) {
  const { ledger } = ctx;
  await eachNew(ctx, "Schedules", async (row, tx) => {
    const contactId = await ledger.target("Contacts", row.contactId);
    const body = text(row.body);
    if (!contactId || !body) return null;
    const sendAt = date(row.sendAt, ctx.now);
    const inserted = await one(
      tx
        .insert(schedules)
        .values({
          body,
          contactId,
          ticketId: (await ledger.target("Tickets", row.ticketId)) ?? null,
          userId: (await ledger.target("Users", row.userId)) ?? null,
          sendAt,
          sentAt: optionalDate(row.sentAt),
          status: scheduleStatus(row.status, sendAt, ctx.now),
          createdAt: date(row.createdAt, ctx.now),
        })
        .returning({ id: schedules.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
}
