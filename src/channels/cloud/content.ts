import type { MessageKind, NormalizedMessage } from "../types";
import type { CloudContactCard, CloudMediaRef, CloudMessage } from "./payload";

/** What an inbound Cloud API message becomes: a message (with the media to fetch, if any) or a reaction. */
export type ReadMessage =
  | { type: "message"; message: NormalizedMessage; media?: CloudMediaRef }
  | { type: "reaction"; targetId: string; emoji: string; reactor: string; at: number };

const MEDIA_KINDS = ["image", "audio", "video", "document", "sticker"] as const;

/** Maps a webhook message to the driver-neutral shape; ids of quoted messages are still the Cloud API's. */
export function readMessage(m: CloudMessage, pushName?: string): ReadMessage {
  const at = Number(m.timestamp) * 1000 || Date.now();
  const chatId = m.from.replace(/\D/g, "");
  if (m.type === "reaction")
    return {
      type: "reaction",
      targetId: m.reaction?.message_id ?? "",
      emoji: m.reaction?.emoji ?? "",
      reactor: chatId,
      at,
    };
  const base = {
    id: m.id,
    chatId,
    isGroup: false,
    fromMe: false,
    at,
    ...(pushName ? { pushName } : {}),
    ...(m.context?.id ? { quotedId: m.context.id } : {}),
  };
  const media = mediaOf(m);
  if (media) {
    const { kind, ref } = media;
    return { type: "message", message: { ...base, kind, body: mediaBody(kind, ref) }, media: ref };
  }
  const content = contentOf(m);
  return { type: "message", message: { ...base, ...content } };
}

function mediaOf(m: CloudMessage): { kind: MessageKind; ref: CloudMediaRef } | undefined {
  const kind = MEDIA_KINDS.find((k) => k === m.type);
  const ref = kind ? m[kind] : undefined;
  return kind && ref?.id ? { kind, ref } : undefined;
}

/** The text shown for a media message, as the Baileys driver shows the same kinds. */
function mediaBody(kind: MessageKind, ref: CloudMediaRef): string {
  if (kind === "audio") return "Áudio";
  if (kind === "sticker") return "sticker";
  if (kind === "document") return ref.caption || ref.filename || "";
  return ref.caption ?? "";
}

function contentOf(m: CloudMessage): Pick<NormalizedMessage, "kind" | "body" | "selectedId"> {
  switch (m.type) {
    case "text":
      return { kind: "chat", body: m.text?.body ?? "" };
    case "location": {
      const { latitude = 0, longitude = 0, name, address } = m.location ?? {};
      const label = [name, address].filter(Boolean).join(" — ");
      return {
        kind: "location",
        body: `|https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17|${label || `${latitude}, ${longitude}`}`,
      };
    }
    case "contacts":
      return { kind: "vcard", body: (m.contacts ?? []).map(vcardOf).join("\n") };
    case "interactive": {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return { kind: "chat", body: reply?.title ?? reply?.id ?? "", ...(reply?.id ? { selectedId: reply.id } : {}) };
    }
    case "button":
      return {
        kind: "chat",
        body: m.button?.text ?? m.button?.payload ?? "",
        ...(m.button?.payload ? { selectedId: m.button.payload } : {}),
      };
    default:
      return { kind: "chat", body: `⚠️ Unsupported message (${m.type}): open it in WhatsApp` };
  }
}

/** A contact card as vCard 3.0 text, the form contact messages are stored in. */
function vcardOf(card: CloudContactCard): string {
  const name = card.name?.formatted_name ?? "";
  const phones = (card.phones ?? []).map((p) =>
    p.wa_id ? `TEL;type=CELL;waid=${p.wa_id}:${p.phone ?? p.wa_id}` : `TEL;type=CELL:${p.phone ?? ""}`,
  );
  return ["BEGIN:VCARD", "VERSION:3.0", `FN:${name}`, ...phones, "END:VCARD"].join("\n");
}
