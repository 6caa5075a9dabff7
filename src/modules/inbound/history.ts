import type { NormalizedMessage } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { LRM } from "../messages/placeholders";
import { findConnection } from "../connections/lookup";
import { storedWids } from "../messages/records";
import { storeMessage } from "../messages/store";
import { shownOf } from "../messages/preview";
import type { MessageRow } from "../../db/tables";
import { getSetting } from "../settings/service";
import { historyTicket } from "../tickets/find-or-create";
import { findTicket, touchHistoryMessage } from "../tickets/records";
import { toTicketDto } from "../tickets/serialize";
import { findOrCreateContact } from "../contacts/find-or-create";
import { GroupCommit } from "./group-commit";
import { indexNewRows } from "./search-indexes";
import { bodyOf } from "./pipeline";

const DAY_MS = 86_400_000;
/** About how many history messages one transaction takes. */
const HISTORY_GROUP_MESSAGES = 2_000;

/**
 * Imports the chat history a connection's phone sent after pairing, when the connection asks for it: the
 * messages of its last `importHistoryDays` days go into one closed ticket per chat (created closed, marked
 * `fromHistory`, and reused by the later batches of the same history). No bot, no notification, no unread
 * count; messages already stored are skipped and the chat's other tickets are left as they are. Each chat is
 * written at once, between live events. Returns how many messages were stored.
 */
export async function importHistory(deps: AppDeps, connectionId: number, list: NormalizedMessage[]): Promise<number> {
  const connection = await findConnection(deps.db, connectionId);
  if (!connection?.importHistory) return 0;
  const since = deps.clock.now() - connection.importHistoryDays * DAY_MS;
  const ignoreGroups = (await getSetting(deps.db, "CheckMsgIsGroup")) === "enabled";
  const chats = new Map<string, NormalizedMessage[]>();
  for (const m of list) {
    if (m.at < since || m.kind === "waiting" || (m.isGroup && ignoreGroups) || (m.fromMe && m.body.startsWith(LRM)))
      continue;
    const key = `${m.isGroup ? "group" : "chat"}:${m.chatId}`;
    const chat = chats.get(key);
    if (chat) chat.push(m);
    else chats.set(key, [m]);
  }
  // Chats are written a few at a time, each group in one transaction whose events are published once it is
  // committed: live messages wait for no more than one group.
  const commits = new GroupCommit(deps.db, deps.events, indexNewRows);
  let stored = 0;
  let group: Promise<number>[] = [];
  let groupSize = 0;
  for (const chat of chats.values()) {
    group.push(
      commits.run(
        async (events) =>
          await importChat(
            { ...deps, events },
            connectionId,
            chat.sort((a, b) => a.at - b.at),
          ),
      ),
    );
    groupSize += chat.length;
    if (groupSize < HISTORY_GROUP_MESSAGES) continue;
    for (const n of await Promise.all(group)) stored += n;
    group = [];
    groupSize = 0;
  }
  for (const n of await Promise.all(group)) stored += n;
  if (stored) deps.log.info("chat history imported", { whatsappId: connectionId, messages: stored, chats: chats.size });
  return stored;
}

async function importChat(deps: AppDeps, connectionId: number, chat: NormalizedMessage[]): Promise<number> {
  const known = await storedWids(
    deps.db,
    connectionId,
    chat.map((m) => m.id),
  );
  const fresh = chat.filter((m) => !known.has(m.id));
  if (!fresh.length) return 0;
  const first = fresh[0]!;
  const contact = first.isGroup
    ? await findOrCreateContact(deps, {
        address: first.chatId,
        name: fresh.find((m) => m.groupName)?.groupName,
        isGroup: true,
      })
    : await findOrCreateContact(deps, {
        address: first.chatId,
        lid: fresh.find((m) => m.lid)?.lid,
        name: fresh.find((m) => !m.fromMe && m.pushName)?.pushName,
        isGroup: false,
      });
  const ticket = await historyTicket(
    deps.db,
    { contactId: contact.id, whatsappId: connectionId, isGroup: first.isGroup },
    first.at,
  );
  let stored = 0;
  let last: MessageRow | undefined;
  for (const m of fresh) {
    const sender = m.fromMe
      ? null
      : m.isGroup
        ? m.author
          ? await findOrCreateContact(deps, {
              address: m.author.phone,
              lid: m.lid,
              name: m.author.name,
              isGroup: false,
            })
          : null
        : contact;
    const { message, created } = await storeMessage(deps, {
      whatsappId: connectionId,
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
      ticketMovedByCaller: true,
    });
    if (!created) continue;
    stored++;
    last = message;
  }
  // Messages are in time order and the ticket only moves forward: the last one stored is where it ends.
  if (last) await touchHistoryMessage(deps.db, ticket.id, shownOf(last), last.createdAt);
  const row = await findTicket(deps.db, ticket.id);
  if (row) deps.events.emit("ticket.updated", { ticket: await toTicketDto(deps.db, row) });
  return stored;
}
