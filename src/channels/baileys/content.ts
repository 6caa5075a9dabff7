import { getContentType, normalizeMessageContent, proto, toNumber, type WAMessage } from "baileys";
import type { MessageKind } from "../types";

/** What a message's content means to the inbox: its kind and text, and whether a file comes with it. */
export interface Content {
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

/** The kind and text of a message's content, or null for a content type the inbox does not know. */
export function contentOf(msg: proto.IMessage): Content | null {
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
      return text([`📅 Event: ${e.name ?? ""}`, when, e.location?.name ?? ""].filter(Boolean).join(" — "));
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

/** A plain text content. */
export const text = (body: string): Content => ({ kind: "chat", body, hasMedia: false });

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

export function contextInfoOf(msg: proto.IMessage): proto.IContextInfo | undefined {
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

/** The new text of an edited message (text or a media caption), or null when it has none. */
export function editedBody(edited: proto.IMessage): string | null {
  const content = contentOf(normalizeMessageContent(edited) ?? edited);
  return content && content.kind !== "reaction" ? content.body : null;
}
