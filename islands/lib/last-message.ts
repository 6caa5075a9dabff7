import type { TFunction } from "i18next";
import type { TicketPreview } from "../../src/shared/contracts";
import { VOICE_MESSAGE_MARK } from "../../src/shared/contracts/tickets";

/** A ticket's last message as the lists show it: the server's voice mark reads "🎤 Voice message" in the user's language. */
export function lastMessageText(t: TFunction, lastMessage: string | null | undefined): string {
  if (lastMessage === VOICE_MESSAGE_MARK) return `${VOICE_MESSAGE_MARK} ${t("tickets.voiceMessage")}`;
  return lastMessage ?? "";
}

/** "0:12" for a voice message's length in seconds. */
function duration(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A label and what comes with it (caption, file name, place), as one line. */
const withExtra = (label: string, extra: string) => (extra.trim() ? `${label}: ${extra.trim()}` : label);

/**
 * A ticket row's preview in the viewer's language: the text of a message; for the other kinds an icon and what the
 * kind is ("📷 Photo: caption", "🎤 Voice message 0:12", "📄 file.pdf: caption", "👤 Name", "📍 Location: place").
 */
export function previewText(t: TFunction, p: TicketPreview): string {
  switch (p.kind) {
    case "image":
      return withExtra(`📷 ${t("tickets.preview.photo")}`, p.text);
    case "video":
      return withExtra(`🎥 ${t("tickets.preview.video")}`, p.text);
    case "audio": {
      const seconds = Number(p.detail);
      const label = `${VOICE_MESSAGE_MARK} ${t("tickets.voiceMessage")}`;
      return seconds > 0 ? `${label} ${duration(seconds)}` : label;
    }
    case "document":
      return withExtra(`📄 ${p.detail || t("tickets.preview.document")}`, p.text);
    case "vcard":
      return `👤 ${p.text || t("tickets.preview.contact")}`;
    case "location":
      return withExtra(`📍 ${t("tickets.preview.location")}`, p.text);
    case "sticker":
      return t("tickets.preview.sticker");
    case "call_log":
      return `📞 ${t("tickets.preview.missedCall")}`;
    default:
      return p.text;
  }
}
