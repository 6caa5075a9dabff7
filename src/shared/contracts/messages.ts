import type { Wire } from "./wire";
import type { TicketDto } from "./tickets";

/** A message as GET /messages/:ticketId and the `appMessage` event carry it. */
export interface MessageDto {
  id: number;
  /** The network's message id. */
  wid: string;
  whatsappId: number | null;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: string;
  /**
   * The file's URL, or null when there is none. Services name it `/api/media/<id>` (which needs the Bearer
   * header); answers and socket frames carry a signed link instead (see http/signed-links.ts), absolute in API
   * answers.
   */
  mediaUrl: string | null;
  mediaMime: string | null;
  fileName: string | null;
  /** Inbound media without its file yet (`downloading`) or for good (`unavailable`). */
  mediaState: "downloading" | "unavailable" | null;
  isDeleted: boolean;
  isEdited: boolean;
  /** An agent's private note: shown to the team only, never sent to the contact. */
  isPrivate: boolean;
  quotedMsgId: number | null;
  remoteJid: string | null;
  participant: string | null;
  senderName: string | null;
  dataJson: string | null;
  /** Own messages sent from here: `queued` until the connection is up, `failed` until retried. */
  sendState: "queued" | "sending" | "sent" | "failed" | null;
  /** The error code of a failed send. */
  sendError: string | null;
  createdAt: Date;
  updatedAt: Date;
  contact: { id: number; name: string; profilePicUrl: string } | null;
  quotedMsg: { id: number; body: string; fromMe: boolean; mediaType: string; contact: { name: string } | null } | null;
  /** Emoji reactions, oldest first; `reactor` is the contact's phone digits or "me". */
  reactions: { emoji: string; reactor: string }[];
}

/** One page of GET /messages/:ticketId (oldest first within the page). */
export interface MessagePageDto {
  count: number;
  messages: MessageDto[];
  ticket: TicketDto;
  hasMore: boolean;
}

/** A message as an island receives it (dates as ISO strings). */
export type Message = Wire<MessageDto>;

/**
 * POST /messages/:ticketId as JSON: a text to the contact, or with `isPrivate` a note for the team, optionally
 * quoting one of the chat's messages. Files go as multipart instead: each in `medias`, the caption in `body`.
 */
export interface OutgoingMessage {
  body?: string;
  quotedMsg?: { id: number };
  isPrivate?: boolean;
}

/** POST /messages/:id/forward: the contacts whose tickets get a copy of the message (a text, or a file with its caption). */
export interface ForwardRequest {
  contactIds: number[];
}

/** POST /messages/:id/react: the emoji to react with; "" takes the reaction back. */
export interface ReactRequest {
  emoji: string;
}

/** GET /messages/:ticketId: which page of the history, 1 being the newest. */
export interface MessagePageQuery {
  pageNumber?: number;
}

/**
 * The whaticket family's names for the kinds Zapdesk names otherwise. Zapdesk stores and answers its own names;
 * the family's clients are answered these (see modules/messages/present.ts).
 */
const FAMILY_MEDIA_TYPES: Readonly<Record<string, string>> = {
  vcard: "contactMessage",
  location: "locationMessage",
};

/** A media type under the family's name for it, when it has one of its own. */
export function familyMediaType(type: string): string {
  return FAMILY_MEDIA_TYPES[type] ?? type;
}
