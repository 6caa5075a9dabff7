import { and, desc, eq, not, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { type MessageRow, messages } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { TicketPreviewKind } from "../../shared/contracts/tickets";
import { TICKET_PREVIEW_KINDS, VOICE_MESSAGE_MARK } from "../../shared/contracts/tickets";
import { vcardNames } from "../../shared/vcard";
import { findTicket, NOTHING_SHOWN, replaceShown } from "../tickets/records";
import type { TicketShown } from "../tickets/last-message";
import { toTicketDto } from "../tickets/serialize";
import { LRM } from "./placeholders";

/** The parts of a message its ticket's preview is made of. */
export type PreviewSource = Pick<MessageRow, "id" | "body" | "mediaType" | "fromMe" | "ack"> &
  Partial<Pick<MessageRow, "fileName" | "dataJson">>;

/** What the server sent by itself (menus, greetings, farewells, surveys, notices): never what a row previews. */
export function isAutomatic(message: Pick<MessageRow, "body" | "fromMe">): boolean {
  return message.fromMe && message.body.startsWith(LRM);
}

/** What the ticket list shows for a message: `lastMessage` (its text, the voice mark for audio) and the preview. */
export function shownOf(message: PreviewSource): TicketShown {
  const kind = previewKind(message.mediaType);
  const { text, detail } = previewParts(kind, message);
  return {
    lastMessage: plainText(kind, message, text),
    previewKind: kind,
    previewText: text,
    previewDetail: detail,
    previewFromMe: message.fromMe,
    previewAck: message.ack,
    previewMessageId: message.id,
  };
}

/**
 * What `lastMessage` holds for a message: its text; the voice mark for audio (whose text is only a file name); a
 * shared contact's name rather than its vCard; a place's name, or its coordinates rather than a map picture.
 */
function plainText(kind: TicketPreviewKind, m: PreviewSource, previewed: string): string {
  if (kind === "audio") return VOICE_MESSAGE_MARK;
  if (kind === "vcard") return previewed || m.body;
  if (kind === "location") return previewed || (m.body.split("|").at(-1) ?? "").trim();
  return m.body;
}

function previewKind(mediaType: string): TicketPreviewKind {
  return (TICKET_PREVIEW_KINDS as readonly string[]).includes(mediaType) ? (mediaType as TicketPreviewKind) : "chat";
}

function previewParts(kind: TicketPreviewKind, m: PreviewSource): { text: string; detail: string | null } {
  // Media without a caption carries its file name as its text.
  const caption = m.body === m.fileName ? "" : m.body;
  switch (kind) {
    case "image":
    case "video":
      return { text: caption, detail: null };
    case "audio": {
      const seconds = rawContent(m.dataJson)?.audioMessage?.seconds;
      return { text: "", detail: typeof seconds === "number" && seconds > 0 ? String(seconds) : null };
    }
    case "document": {
      const name = m.fileName || m.body;
      return { text: m.body === name ? "" : m.body, detail: name || null };
    }
    case "vcard": {
      const names = vcardNames(m.body);
      return { text: names.join(", "), detail: null };
    }
    case "location":
      return { text: placeName(m), detail: null };
    case "sticker":
    case "call_log":
      return { text: "", detail: null };
    default:
      return { text: m.body, detail: null };
  }
}

type RawContent = {
  audioMessage?: { seconds?: unknown };
  locationMessage?: { name?: unknown; address?: unknown };
};

/** The message content of the raw payload a driver kept, when it kept one. */
function rawContent(dataJson: string | null | undefined): RawContent | undefined {
  if (!dataJson) return undefined;
  try {
    const raw = JSON.parse(dataJson) as { message?: RawContent } | null;
    return raw?.message ?? undefined;
  } catch {
    return undefined;
  }
}

/** A shared place's name: WhatsApp's, or the part of the body that is neither a picture, a link nor coordinates. */
function placeName(m: PreviewSource): string {
  const place = rawContent(m.dataJson)?.locationMessage;
  const named = [place?.name, place?.address].find((v): v is string => typeof v === "string" && v.trim() !== "");
  if (named) return named.trim();
  const parts = m.body.split("|").map((p) => p.trim());
  return (
    parts.find(
      (p) => p && !/^(data:|https?:)/.test(p) && !/^-?\d/.test(p) && !/^Latitude:/i.test(p) && /\p{L}/u.test(p),
    ) ?? ""
  );
}

/**
 * When the ticket shows `messageId` and that message was deleted or changed: shows the newest message a person wrote
 * that is still there, and tells the lists (a `ticket` update).
 */
export async function refreshPreview(deps: Pick<AppDeps, "db" | "events">, ticketId: number, messageId: number) {
  const ticket = await findTicket(deps.db, ticketId);
  if (!ticket || ticket.previewMessageId !== messageId) return;
  const latest = await latestShownMessage(deps.db, ticketId);
  const row = await replaceShown(deps.db, ticketId, messageId, latest ? shownOf(latest) : NOTHING_SHOWN);
  if (row) deps.events.emit("ticket.updated", { ticket: await toTicketDto(deps.db, row) });
}

/** The newest message of the ticket a list row may preview: not automatic, not a note, not deleted. */
async function latestShownMessage(db: Reader, ticketId: number): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, ticketId),
        eq(messages.isDeleted, false),
        eq(messages.isPrivate, false),
        not(and(eq(messages.fromMe, true), sql`${messages.body} like ${`${LRM}%`}`)!),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row;
}
