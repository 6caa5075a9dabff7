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
import { lidAddress } from "../../shared/address";
import type { CallEvent, MessageEdit, MessageKind, NormalizedContact, NormalizedMessage, Reaction } from "../types";

/** Resolves a LID jid to a phone-number jid when Baileys already knows the pair. */
export type LidToPn = (lidJid: string) => string | undefined;

const LRM = "\u200e";
const noPn: LidToPn = () => undefined;

/** The user part of a jid (no device, no server). */
export function jidUser(jid: string | null | undefined): string | undefined {
  return jid ? jidDecode(jid)?.user : undefined;
}

/** Phone digits for an identity given as a jid and its alternate (one may be a LID); never LID digits. */
export function phoneOf(
  jid: string | null | undefined,
  alt: string | null | undefined,
  lidToPn: LidToPn = noPn,
): string | undefined {
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

/** How the inbox addresses a person: phone digits, else `lid:<digits>` while only their LID is known. */
export function addressOf(
  jid: string | null | undefined,
  alt: string | null | undefined,
  lidToPn: LidToPn = noPn,
): string | undefined {
  const phone = phoneOf(jid, alt, lidToPn);
  if (phone) return phone;
  const lid = lidOf(jid, alt);
  return lid ? lidAddress(lid) : undefined;
}

/** Chats the inbox never handles: status, broadcast lists, newsletters. */
export function isIgnoredJid(jid: string | null | undefined): boolean {
  return !jid || !!isJidBroadcast(jid) || !!isJidNewsletter(jid);
}

const DROPPED_STUBS = new Set<number>([
  WAMessageStubType.REVOKE,
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
  const from = addressOf(key.remoteJid, key.remoteJidAlt, lidToPn);
  if (!from) return null;
  const isVideo =
    m.messageStubType === WAMessageStubType.CALL_MISSED_VIDEO ||
    m.messageStubType === WAMessageStubType.CALL_MISSED_GROUP_VIDEO;
  return { id: m.key.id, from, at: toNumber(m.messageTimestamp) * 1000, kind: "missed", isVideo };
}

/** What an undecryptable message shows until WhatsApp resends it under the same id. */
export const WAITING_BODY = "Waiting for this message. This may take a while.";

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
      return {
        kind: "location",
        body: locationBody(l.degreesLatitude ?? 0, l.degreesLongitude ?? 0, l.jpegThumbnail),
        hasMedia: false,
      };
    }
    case "liveLocationMessage": {
      const l = msg.liveLocationMessage!;
      return {
        kind: "location",
        body: `Latitude: ${l.degreesLatitude ?? 0} - Longitude: ${l.degreesLongitude ?? 0}`,
        hasMedia: false,
      };
    }
    case "reactionMessage": {
      const r = msg.reactionMessage!;
      return { kind: "reaction", body: r.text ?? "", quotedId: r.key?.id ?? undefined, hasMedia: false };
    }
    case "pollCreationMessage":
    case "pollCreationMessageV2":
    case "pollCreationMessageV3": {
      const p = msg[type]!;
      const options = (p.options ?? []).map((o) => o.optionName ?? "").filter(Boolean);
      return text(`📊 Poll: ${p.name ?? ""}${options.length ? ` — ${options.join(" / ")}` : ""}`);
    }
    case "eventMessage": {
      const e = msg.eventMessage!;
      const when = e.startTime
        ? new Date(toNumber(e.startTime) * 1000).toISOString().slice(0, 16).replace("T", " ")
        : "";
      return text(["📅 Event: " + (e.name ?? ""), when, e.location?.name ?? ""].filter(Boolean).join(" — "));
    }
    case "orderMessage": {
      const o = msg.orderMessage!;
      const total = o.totalAmount1000 != null ? ` — ${money(o.totalAmount1000, o.totalCurrencyCode)}` : "";
      return text(
        `🛒 Order: ${o.itemCount ?? 0} item(s)${o.orderTitle ? ` — ${o.orderTitle}` : ""}${total}${o.message ? `\n${o.message}` : ""}`,
      );
    }
    case "productMessage": {
      const p = msg.productMessage?.product;
      const price = p?.priceAmount1000 != null ? ` — ${money(p.priceAmount1000, p.currencyCode)}` : "";
      return text(
        `🛍️ Product: ${p?.title ?? ""}${price}${msg.productMessage?.body ? `\n${msg.productMessage.body}` : ""}`,
      );
    }
    case "groupInviteMessage": {
      const g = msg.groupInviteMessage!;
      return text(`👥 Group invite: ${g.groupName ?? ""}${g.caption ? `\n${g.caption}` : ""}`);
    }
    case "interactiveResponseMessage": {
      const r = msg.interactiveResponseMessage!;
      const chosen = selectionOf(r.nativeFlowResponseMessage?.paramsJson);
      return {
        kind: "chat",
        body: r.body?.text || chosen || r.nativeFlowResponseMessage?.name || "",
        selectedId: chosen,
        hasMedia: false,
      };
    }
    case "interactiveMessage": {
      const i = msg.interactiveMessage!;
      return text([i.header?.title, i.body?.text, i.footer?.text].filter(Boolean).join("\n"));
    }
    case "buttonsMessage":
      return text(msg.buttonsMessage?.contentText ?? "");
    case "listMessage": {
      const l = msg.listMessage!;
      return text([l.title, l.description].filter(Boolean).join("\n"));
    }
    case "templateMessage": {
      const h = msg.templateMessage?.hydratedTemplate ?? msg.templateMessage?.hydratedFourRowTemplate;
      return text([h?.hydratedTitleText, h?.hydratedContentText, h?.hydratedFooterText].filter(Boolean).join("\n"));
    }
    case "buttonsResponseMessage": {
      const b = msg.buttonsResponseMessage!;
      return {
        kind: "chat",
        body: b.selectedDisplayText || b.selectedButtonId || "",
        selectedId: b.selectedButtonId ?? undefined,
        hasMedia: false,
      };
    }
    case "listResponseMessage": {
      const l = msg.listResponseMessage!;
      const rowId = l.singleSelectReply?.selectedRowId ?? undefined;
      return { kind: "chat", body: l.title || rowId || "", selectedId: rowId, hasMedia: false };
    }
    case "templateButtonReplyMessage": {
      const t = msg.templateButtonReplyMessage!;
      return {
        kind: "chat",
        body: t.selectedId || t.selectedDisplayText || "",
        selectedId: t.selectedId ?? undefined,
        hasMedia: false,
      };
    }
    default:
      return null;
  }
}

const text = (body: string): Content => ({ kind: "chat", body, hasMedia: false });

function money(amount1000: Parameters<typeof toNumber>[0], currency: string | null | undefined): string {
  return `${(toNumber(amount1000) / 1000).toFixed(2)}${currency ? ` ${currency}` : ""}`;
}

/** The id chosen in a native-flow reply (`{"id": "..."}`), if any. */
function selectionOf(paramsJson: string | null | undefined): string | undefined {
  if (!paramsJson) return undefined;
  try {
    const id = (JSON.parse(paramsJson) as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
  } catch {
    return undefined;
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

/** The new text of an edited message (text or a media caption), or null when it has none. */
export function editedBody(edited: proto.IMessage): string | null {
  const content = contentOf(normalizeMessageContent(edited) ?? edited);
  return content && content.kind !== "reaction" ? content.body : null;
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
  const from = phoneOf(call.callerPn, call.from, lidToPn) ?? addressOf(call.from, call.chatId, lidToPn);
  if (!from) return null;
  return {
    id: call.id,
    from,
    at: new Date(call.date).getTime(),
    kind,
    ...(call.isVideo !== undefined ? { isVideo: !!call.isVideo } : {}),
  };
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
