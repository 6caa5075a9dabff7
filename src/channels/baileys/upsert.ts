import {
  getContentType,
  isJidGroup,
  normalizeMessageContent,
  proto,
  toNumber,
  WAMessageStubType,
  type WAMessage,
  type WAMessageKey,
} from "baileys";
import type { CallEvent, MessageEdit, NormalizedMessage, Reaction } from "../types";
import { missedCallOf } from "./calls";
import { type Content, contextInfoOf, contentOf, editedBody, innerMessage, rawOf, text } from "./content";
import { addressOf, isIgnoredJid, jidUser, type LidToPn, lidOf, noPn } from "./jid";

/** The mark the app puts in its automatic messages: their echo from the phone is already stored. */
const LRM = "\u200e";

const DROPPED_STUBS = new Set<number>([
  WAMessageStubType.REVOKE,
  WAMessageStubType.E2E_DEVICE_CHANGED,
  WAMessageStubType.E2E_IDENTITY_CHANGED,
  WAMessageStubType.E2E_ENCRYPTED,
]);

/** The message id a contact or we revoked, when this upsert is a revoke protocol message. */
export function revokedIdOf(m: WAMessage): string | undefined {
  const pm = normalizeMessageContent(m.message)?.protocolMessage;
  if (pm && pm.type === proto.Message.ProtocolMessage.Type.REVOKE && pm.key?.id) return pm.key.id;
  return undefined;
}

/** What an undecryptable message shows until WhatsApp resends it under the same id. */
export const WAITING_BODY = "Waiting for this message. This may take a while.";

/** What one upserted message means to the inbox. */
export type Upsert =
  | { type: "message"; message: NormalizedMessage }
  | { type: "edit"; edit: MessageEdit }
  | { type: "reaction"; reaction: Reaction }
  | { type: "revoke"; id: string }
  | { type: "missedCall"; call: CallEvent }
  | { type: "ignored"; reason: string };

/**
 * Reads an upserted message: a chat message, an edit, a reaction, a revoke, a missed call, or something the
 * inbox ignores with the reason (status/broadcast chats, protocol messages, our own LRM-marked automatic
 * messages). A sender whose phone number is not known yet is addressed by their LID (`lid:<digits>`).
 */
export function readUpsert(m: WAMessage, lidToPn: LidToPn = noPn): Upsert {
  const key = m.key as WAMessageKey;
  const remoteJid = key.remoteJid;
  if (!remoteJid || !key.id) return { type: "ignored", reason: "no chat or id" };
  if (isIgnoredJid(remoteJid)) return { type: "ignored", reason: "status, broadcast or newsletter" };
  const revoked = revokedIdOf(m);
  if (revoked) return { type: "revoke", id: revoked };
  const call = missedCallOf(m, lidToPn);
  if (call) return { type: "missedCall", call };
  if (m.messageStubType != null && DROPPED_STUBS.has(m.messageStubType))
    return { type: "ignored", reason: `stub ${m.messageStubType}` };
  const msg = innerMessage(m);
  const edit = editOf(m, msg);
  if (edit) return { type: "edit", edit };
  if (msg?.protocolMessage) return { type: "ignored", reason: `protocol message ${msg.protocolMessage.type ?? ""}` };
  const content = upsertContent(m, msg);
  if (!content) return { type: "ignored", reason: `no content (${msg ? getContentType(msg) : "empty"})` };
  if (content === "pollVote") return { type: "ignored", reason: "poll vote (encrypted for the poll's author)" };
  const fromMe = !!key.fromMe;
  if (fromMe && content.body.includes(LRM)) return { type: "ignored", reason: "own automatic message" };

  const isGroup = !!isJidGroup(remoteJid);
  const senderJid = isGroup ? key.participant : remoteJid;
  const senderAlt = isGroup ? key.participantAlt : key.remoteJidAlt;
  const sender = addressOf(senderJid, senderAlt, lidToPn);
  const lid = lidOf(senderJid, senderAlt);
  const chatId = isGroup ? jidUser(remoteJid) : sender;
  if (!chatId) return { type: "ignored", reason: "sender has neither a phone number nor a LID" };

  if (content.kind === "reaction") {
    const reactor = fromMe ? "me" : sender;
    if (!reactor || !content.quotedId) return { type: "ignored", reason: "reaction without target or sender" };
    return {
      type: "reaction",
      reaction: { targetId: content.quotedId, emoji: content.body, reactor, at: toNumber(m.messageTimestamp) * 1000 },
    };
  }

  const ctx = msg ? contextInfoOf(msg) : undefined;
  const quotedId = content.quotedId ?? (ctx?.stanzaId || undefined);
  const out: NormalizedMessage = {
    id: key.id,
    chatId,
    isGroup,
    fromMe,
    at: toNumber(m.messageTimestamp) * 1000,
    kind: content.kind,
    body: content.body,
    remoteJid,
  };
  if (quotedId) out.quotedId = quotedId;
  if (isGroup && sender && !fromMe) out.author = { phone: sender, ...(m.pushName ? { name: m.pushName } : {}) };
  if (!isGroup && !fromMe && m.pushName) out.pushName = m.pushName;
  if (lid) out.lid = lid;
  if (fromMe && typeof m.status === "number") out.ack = m.status;
  if (content.selectedId) out.selectedId = content.selectedId;
  if (key.participant) out.participant = key.participant;
  const raw = rawOf(m);
  if (raw) out.raw = raw;
  return { type: "message", message: out };
}

/** Maps a Baileys chat message to the driver-neutral shape, or null when it is not one (see `readUpsert`). */
export function mapMessage(m: WAMessage, lidToPn: LidToPn = noPn): NormalizedMessage | null {
  const read = readUpsert(m, lidToPn);
  return read.type === "message" ? read.message : null;
}

/** The content of an upsert: undecryptable stubs and view-once media the companion never gets become text. */
function upsertContent(m: WAMessage, msg: proto.IMessage | undefined): Content | "pollVote" | null {
  if (m.messageStubType === WAMessageStubType.CIPHERTEXT)
    return { kind: "waiting", body: WAITING_BODY, hasMedia: false };
  if (!msg) return (m.key as { isViewOnce?: boolean }).isViewOnce ? text(VIEW_ONCE_BODY) : null;
  if (msg.pollUpdateMessage) return "pollVote";
  const type = getContentType(msg);
  if (!type) return null;
  return contentOf(msg) ?? text(`⚠️ Unsupported message (${type}): open it on the phone`);
}

/** What a view-once photo or video shows: WhatsApp never gives its file to linked devices. */
export const VIEW_ONCE_BODY = "📷 View-once media: open it on the phone";

/** The edit carried by a MESSAGE_EDIT protocol message, if this is one. */
function editOf(m: WAMessage, msg: proto.IMessage | undefined): MessageEdit | null {
  const pm = msg?.protocolMessage;
  if (!pm || pm.type !== proto.Message.ProtocolMessage.Type.MESSAGE_EDIT || !pm.key?.id || !pm.editedMessage)
    return null;
  const body = editedBody(pm.editedMessage);
  if (body === null) return null;
  const at = pm.timestampMs ? toNumber(pm.timestampMs) : toNumber(m.messageTimestamp) * 1000;
  return { id: pm.key.id, body, at };
}
