import { and, desc, eq, inArray } from "drizzle-orm";
import type { NormalizedMessage } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { type ContactRow, messages, type TicketRow, tickets, whatsapps } from "../../db/schema";
import { LRM } from "../messages/placeholders";
import { storeMessage } from "../messages/store";
import { getSetting } from "../settings/service";
import { toTicketDto } from "../tickets/serialize";
import { findOrCreateContact } from "./contacts";
import { bodyOf } from "./pipeline";

const DAY_MS = 86_400_000;

/**
 * Imports the chat history a connection's phone sent after pairing, when the connection asks for it: the
 * messages of its last `importHistoryDays` days go into one closed ticket per chat (created closed, marked
 * `fromHistory`, and reused by the later batches of the same history). No bot, no notification, no unread
 * count; messages already stored are skipped and the chat's other tickets are left as they are. Each chat is
 * written at once, between live events. Returns how many messages were stored.
 */
export async function importHistory(deps: AppDeps, whatsappId: number, list: NormalizedMessage[]): Promise<number> {
  const connection = deps.db
    .select({ importHistory: whatsapps.importHistory, days: whatsapps.importHistoryDays })
    .from(whatsapps)
    .where(eq(whatsapps.id, whatsappId))
    .get();
  if (!connection?.importHistory) return 0;
  const since = deps.clock.now() - connection.days * DAY_MS;
  const ignoreGroups = getSetting(deps.db, "CheckMsgIsGroup") === "enabled";
  const chats = new Map<string, NormalizedMessage[]>();
  for (const m of list) {
    if (m.at < since || m.kind === "waiting" || (m.isGroup && ignoreGroups) || (m.fromMe && m.body.startsWith(LRM)))
      continue;
    const key = `${m.isGroup ? "group" : "chat"}:${m.chatId}`;
    const chat = chats.get(key);
    if (chat) chat.push(m);
    else chats.set(key, [m]);
  }
  let stored = 0;
  for (const chat of chats.values()) {
    stored += importChat(
      deps,
      whatsappId,
      chat.sort((a, b) => a.at - b.at),
    );
    // Live messages wait for no more than one chat.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (stored) deps.log.info("chat history imported", { whatsappId, messages: stored, chats: chats.size });
  return stored;
}

function importChat(deps: AppDeps, whatsappId: number, chat: NormalizedMessage[]): number {
  const known = new Set<string>();
  for (let i = 0; i < chat.length; i += 500) {
    const wids = chat.slice(i, i + 500).map((m) => m.id);
    for (const r of deps.db
      .select({ wid: messages.wid })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, wids)))
      .all())
      known.add(r.wid);
  }
  const fresh = chat.filter((m) => !known.has(m.id));
  if (!fresh.length) return 0;
  const first = fresh[0]!;
  const contact = first.isGroup
    ? findOrCreateContact(deps, {
        address: first.chatId,
        name: fresh.find((m) => m.groupName)?.groupName,
        isGroup: true,
      })
    : findOrCreateContact(deps, {
        address: first.chatId,
        lid: fresh.find((m) => m.lid)?.lid,
        name: fresh.find((m) => !m.fromMe && m.pushName)?.pushName,
        isGroup: false,
      });
  const ticket = historyTicket(deps, contact, whatsappId, first);
  let stored = 0;
  for (const m of fresh) {
    const sender = m.fromMe
      ? null
      : m.isGroup
        ? m.author
          ? findOrCreateContact(deps, { address: m.author.phone, lid: m.lid, name: m.author.name, isGroup: false })
          : null
        : contact;
    const { created } = storeMessage(deps, {
      whatsappId,
      wid: m.id,
      ticketId: ticket.id,
      contactId: sender?.id ?? null,
      body: bodyOf(m),
      fromMe: m.fromMe,
      read: true,
      ack: m.ack,
      mediaType: m.kind,
      mediaUrl: m.media?.fileName ?? null,
      mediaMime: m.media?.mimetype ?? null,
      fileName: m.media?.originalName ?? null,
      quotedWid: m.quotedId ?? null,
      remoteJid: m.remoteJid ?? null,
      participant: m.participant ?? null,
      senderName: m.isGroup ? (m.author?.name ?? sender?.name ?? null) : null,
      dataJson: m.raw ?? null,
      at: m.at,
      history: true,
    });
    if (created) stored++;
  }
  const row = deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).get();
  if (row) deps.events.emit("ticket.updated", { ticket: toTicketDto(deps.db, row) });
  return stored;
}

/** The chat's history ticket on this connection, created closed at its first message when there is none. */
function historyTicket(deps: AppDeps, contact: ContactRow, whatsappId: number, first: NormalizedMessage): TicketRow {
  return deps.db.transaction((tx) => {
    const existing = tx
      .select()
      .from(tickets)
      .where(and(eq(tickets.contactId, contact.id), eq(tickets.whatsappId, whatsappId), eq(tickets.fromHistory, true)))
      .orderBy(desc(tickets.id))
      .get();
    if (existing) return existing;
    const at = new Date(first.at);
    return tx
      .insert(tickets)
      .values({
        contactId: contact.id,
        whatsappId,
        isGroup: first.isGroup,
        status: "closed",
        isBot: false,
        fromHistory: true,
        createdAt: at,
        updatedAt: at,
      })
      .returning()
      .get();
  });
}
