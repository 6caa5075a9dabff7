import type { TFunction } from "i18next";
import type { TicketPreview } from "../../src/shared/contracts";
import { VOICE_MESSAGE_MARK } from "../../src/shared/contracts/tickets";
import type { IconName } from "./icons";

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
 * A ticket row's preview in the viewer's language: the text of a message; for the other kinds the icon of the kind
 * and what it is ("Photo: caption", "Voice message 0:12", "file.pdf: caption", the contact's name, "Location: place").
 * The icons are drawn, so they show where the system has no emoji font.
 */
export function previewOf(t: TFunction, p: TicketPreview): { icon: IconName | null; text: string } {
  switch (p.kind) {
    case "image":
      return { icon: "camera", text: withExtra(t("tickets.preview.photo"), p.text) };
    case "video":
      return { icon: "videocam", text: withExtra(t("tickets.preview.video"), p.text) };
    case "audio": {
      const seconds = Number(p.detail);
      const label = t("tickets.voiceMessage");
      return { icon: "mic", text: seconds > 0 ? `${label} ${duration(seconds)}` : label };
    }
    case "document":
      return { icon: "file", text: withExtra(p.detail || t("tickets.preview.document"), p.text) };
    case "vcard":
      return { icon: "contacts", text: p.text || t("tickets.preview.contact") };
    case "location":
      return { icon: "place", text: withExtra(t("tickets.preview.location"), p.text) };
    case "sticker":
      return { icon: "emoji", text: t("tickets.preview.sticker") };
    case "call_log":
      return { icon: "phone", text: t("tickets.preview.missedCall") };
    default:
      return { icon: null, text: p.text };
  }
}
