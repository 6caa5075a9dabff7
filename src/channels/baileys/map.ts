import {
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  normalizeMessageContent,
  proto,
  toNumber,
  WAMessageStubType,
  type Contact,
  type MessageUserReceipt,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from "baileys";
import type { CallEvent, MessageKind, NormalizedContact, NormalizedMessage } from "../types";

/** Resolves a LID jid to a phone-number jid when Baileys already knows the pair. */
export type LidToPn = (lidJid: string) => string | undefined;

const LRM = "\u200e";
const noPn: LidToPn = () => undefined;

/** The user part of a jid (no device, no server). */
export function jidUser(jid: string | null | undefined): string | undefined {
  return jid ? jidDecode(jid)?.user : undefined;
}

/** Phone digits for an identity given as a jid and its alternate (one may be a LID); never LID digits. */
export function phoneOf(jid: string | null | undefined, alt: string | null | undefined, lidToPn: LidToPn = noPn): string | undefined {
  if (jid && isPnUser(jid)) return jidUser(jid);
  if (alt && isPnUser(alt)) return jidUser(alt);
  const lid = [jid, alt].find((j) => j && isLidUser(j));
  const pn = lid ? lidToPn(lid) : undefined;
  return pn && isPnUser(pn) ? jidUser(pn) : undefined;
}

function lidOf(jid: string | null | undefined, alt: string | null | undefined): string | undefined {
  const lid = [jid, alt].find((j) => j && isLidUser(j));
  return lid ? jidUser(lid) : undefined;
}

/** Chats the inbox never handles: status, broadcast lists, newsletters. */
export function isIgnoredJid(jid: string | null | undefined): boolean {
  return !jid || !!isJidBroadcast(jid) || !!isJidNewsletter(jid);
}

const DROPPED_STUBS = new Set<number>([
  WAMessageStubType.REVOKE,
  WAMessageStubType.CIPHERTEXT,
  WAMessageStubType.E2E_DEVICE_CHANGED,
  WAMessageStubType.E2E_IDENTITY_CHANGED,
  WAMessageStubType.E2E_ENCRYPTED,
]);

const MISSED_CALL_STUBS = new Set<number>([
  WAMessageStubType.CALL_MISSED_VOICE,
  WAMessageStubType.CALL_MISSED_VIDEO,
  WAMessageStubType.CALL_MISSED_GROUP_VOICE,
  WAMessageStubType.CALL_MISSED_GROUP_VIDEO,
]);

/** The message id a contact or we revoked, when this upsert is a revoke protocol message. */
export function revokedIdOf(m: WAMessage): string | undefined {
  const pm = normalizeMessageContent(m.message)?.protocolMessage;
  if (pm && pm.type === proto.Message.ProtocolMessage.Type.REVOKE && pm.key?.id) return pm.key.id;
  return undefined;
}

/** A missed call carried as a stub message (Baileys upserts one when a call times out). */
export function missedCallOf(m: WAMessage, lidToPn: LidToPn = noPn): CallEvent | null {
  if (m.messageStubType == null || !MISSED_CALL_STUBS.has(m.messageStubType) || !m.key.id) return null;
  const key = m.key as WAMessageKey;
  const from = phoneOf(key.remoteJid, key.remoteJidAlt, lidToPn);
  if (!from) return null;
  const isVideo =
    m.messageStubType === WAMessageStubType.CALL_MISSED_VIDEO || m.messageStubType === WAMessageStubType.CALL_MISSED_GROUP_VIDEO;
  return { id: m.key.id, from, at: toNumber(m.messageTimestamp) * 1000, kind: "missed", isVideo };
}

interface Content {
  kind: MessageKind;
  body: string;
  selectedId?: string;
  quotedId?: string;
  hasMedia: boolean;
}

function locationBody(lat: number, lng: number, thumb: Uint8Array | null | undefined): string {
  const image = thumb?.length ? `data:image/png;base64,${Buffer.from(thumb).toString("base64")}` : "";
  return `${image}|https://maps.google.com/maps?q=${lat}%2C${lng}&z=17|${lat}, ${lng}`;
}

function contentOf(msg: proto.IMessage): Content | null {
  const type = getContentType(msg);
  switch (type) {
    case "conversation":
      return { kind: "chat", body: msg.conversation ?? "", hasMedia: false };
    case "extendedTextMessage":
      return { kind: "chat", body: msg.extendedTextMessage?.text ?? "", hasMedia: false };
    case "imageMessage":
      return { kind: "image", body: msg.imageMessage?.caption ?? "", hasMedia: true };
    case "videoMessage":
      return { kind: "video", body: msg.videoMessage?.caption ?? "", hasMedia: true };
    case "ptvMessage":
      return { kind: "video", body: msg.ptvMessage?.caption ?? "", hasMedia: true };
    case "audioMessage":
      return { kind: "audio", body: "Áudio", hasMedia: true };
    case "stickerMessage":
      return { kind: "sticker", body: "sticker", hasMedia: true };
    case "documentMessage": {
      const d = msg.documentMessage!;
      return { kind: "document", body: d.caption || d.title || d.fileName || "", hasMedia: true };
    }
    case "contactMessage":
      return { kind: "vcard", body: msg.contactMessage?.vcard ?? "", hasMedia: false };
    case "contactsArrayMessage": {
      const cards = (msg.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? "").filter(Boolean);
      return { kind: "vcard", body: cards.join("\n"), hasMedia: false };
    }
    case "locationMessage": {
      const l = msg.locationMessage!;
      return { kind: "location", body: locationBody(l.degreesLatitude ?? 0, l.degreesLongitude ?? 0, l.jpegThumbnail), hasMedia: false };
    }
    case "liveLocationMessage": {
      const l = msg.liveLocationMessage!;
      return { kind: "location", body: `Latitude: ${l.degreesLatitude ?? 0} - Longitude: ${l.degreesLongitude ?? 0}`, hasMedia: false };
    }
    case "reactionMessage": {
      const r = msg.reactionMessage!;
      return { kind: "reaction", body: r.text || "reaction", quotedId: r.key?.id ?? undefined, hasMedia: false };
    }
    case "buttonsResponseMessage": {
      const b = msg.buttonsResponseMessage!;
      return { kind: "chat", body: b.selectedDisplayText || b.selectedButtonId || "", selectedId: b.selectedButtonId ?? undefined, hasMedia: false };
    }
    case "listResponseMessage": {
      const l = msg.listResponseMessage!;
      const rowId = l.singleSelectReply?.selectedRowId ?? undefined;
      return { kind: "chat", body: l.title || rowId || "", selectedId: rowId, hasMedia: false };
    }
    case "templateButtonReplyMessage": {
      const t = msg.templateButtonReplyMessage!;
      return { kind: "chat", body: t.selectedId || t.selectedDisplayText || "", selectedId: t.selectedId ?? undefined, hasMedia: false };
    }
    default:
      return null;
  }
}

function contextInfoOf(msg: proto.IMessage): proto.IContextInfo | undefined {
  const type = getContentType(msg);
  const inner = type ? (msg[type] as { contextInfo?: proto.IContextInfo } | undefined) : undefined;
  return inner && typeof inner === "object" ? (inner.contextInfo ?? undefined) : undefined;
}

/** The inner message after unwrapping ephemeral / view-once / document-with-caption wrappers. */
export function innerMessage(m: WAMessage): proto.IMessage | undefined {
  return normalizeMessageContent(m.message);
}

/** True when the message carries downloadable media. */
export function hasMedia(m: WAMessage): boolean {
  const msg = innerMessage(m);
  return !!msg && !!contentOf(msg)?.hasMedia;
}

/** Serialises the message content for quoting and deleting later (bytes as base64, longs as strings). */
export function rawOf(m: WAMessage): string | undefined {
  if (!m.message) return undefined;
  return JSON.stringify(proto.Message.toObject(proto.Message.fromObject(m.message), { longs: String, bytes: String }));
}

/** Rebuilds a quotable WAMessage from what was stored by `rawOf` and the key columns. */
export function quotedFromRaw(
  raw: string,
  key: { id: string; remoteJid: string; fromMe: boolean; participant?: string | null },
): WAMessage {
  return {
    key: { id: key.id, remoteJid: key.remoteJid, fromMe: key.fromMe, participant: key.participant ?? undefined },
    message: proto.Message.fromObject(JSON.parse(raw)),
  };
}

/**
 * Maps a Baileys message to the driver-neutral shape, or null when the inbox ignores it (status/broadcast,
 * protocol messages, stubs, unknown types, our own LRM-marked auto messages, or a LID sender with no known phone).
 * Revokes and missed-call stubs are read with `revokedIdOf` / `missedCallOf`.
 */
export function mapMessage(m: WAMessage, lidToPn: LidToPn = noPn): NormalizedMessage | null {
  const key = m.key as WAMessageKey;
  const remoteJid = key.remoteJid;
  if (!remoteJid || !key.id || isIgnoredJid(remoteJid)) return null;
  if (m.messageStubType != null && (DROPPED_STUBS.has(m.messageStubType) || MISSED_CALL_STUBS.has(m.messageStubType))) return null;
  const msg = innerMessage(m);
  if (!msg || msg.protocolMessage) return null;
  const content = contentOf(msg);
  if (!content) return null;
  const fromMe = !!key.fromMe;
  if (fromMe && content.body.includes(LRM)) return null;

  const isGroup = !!isJidGroup(remoteJid);
  let chatId: string | undefined;
  let author: NormalizedMessage["author"];
  let lid: string | undefined;
  if (isGroup) {
    chatId = jidUser(remoteJid);
    const phone = phoneOf(key.participant, key.participantAlt, lidToPn);
    if (phone && !fromMe) author = { phone, ...(m.pushName ? { name: m.pushName } : {}) };
    lid = lidOf(key.participant, key.participantAlt);
  } else {
    chatId = phoneOf(remoteJid, key.remoteJidAlt, lidToPn);
    lid = lidOf(remoteJid, key.remoteJidAlt);
  }
  if (!chatId) return null;

  const ctx = contextInfoOf(msg);
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
  if (author) out.author = author;
  if (!isGroup && !fromMe && m.pushName) out.pushName = m.pushName;
  if (lid) out.lid = lid;
  if (fromMe && typeof m.status === "number") out.ack = m.status;
  if (content.selectedId) out.selectedId = content.selectedId;
  if (key.participant) out.participant = key.participant;
  const raw = rawOf(m);
  if (raw) out.raw = raw;
  return out;
}

/** Baileys status (0 error … 5 played) as our ack, or undefined when absent. */
export function ackOfStatus(status: number | null | undefined): number | undefined {
  return typeof status === "number" && status >= 0 && status <= 5 ? status : undefined;
}

/** The ack a group receipt means: played 5, read 4, delivered 3. */
export function ackOfReceipt(receipt: MessageUserReceipt): number | undefined {
  if (receipt.playedTimestamp) return 5;
  if (receipt.readTimestamp) return 4;
  if (receipt.receiptTimestamp) return 3;
  return undefined;
}

/** Monotonic ack: only moves forward; 0 (error) only replaces pending (≤ 1). */
export function nextAck(old: number | undefined, next: number): number | undefined {
  if (old === undefined) return next;
  if (next === 0) return old <= 1 && old !== 0 ? 0 : undefined;
  return next > old ? next : undefined;
}

/** Maps a call event: `offer` rings, `timeout` is a missed call; other states are not reported. */
export function mapCall(call: WACallEvent, lidToPn: LidToPn = noPn): CallEvent | null {
  if (call.isGroup) return null;
  const kind = call.status === "offer" ? "offer" : call.status === "timeout" ? "missed" : null;
  if (!kind) return null;
  const from = phoneOf(call.callerPn, call.from, lidToPn) ?? phoneOf(call.from, call.chatId, lidToPn);
  if (!from) return null;
  return { id: call.id, from, at: new Date(call.date).getTime(), kind, ...(call.isVideo !== undefined ? { isVideo: !!call.isVideo } : {}) };
}

/** Maps Baileys contacts, skipping groups, broadcasts and LID-only entries with no phone mapping. */
export function mapContacts(contacts: Partial<Contact>[], lidToPn: LidToPn = noPn): NormalizedContact[] {
  const out: NormalizedContact[] = [];
  for (const c of contacts) {
    if (!c.id || isJidGroup(c.id) || isIgnoredJid(c.id)) continue;
    const phone = phoneOf(c.id, c.phoneNumber, lidToPn) ?? (c.lid ? phoneOf(c.lid, undefined, lidToPn) : undefined);
    if (!phone) continue;
    const lid = lidOf(c.id, c.lid);
    const name = c.name || c.notify || c.verifiedName || undefined;
    out.push({ phone, ...(lid ? { lid } : {}), ...(name ? { name } : {}) });
  }
  return out;
}
