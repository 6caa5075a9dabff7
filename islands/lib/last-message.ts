import type { TFunction } from "i18next";
import { VOICE_MESSAGE_MARK } from "../../src/shared/contracts/tickets";

/** A ticket's last message as the lists show it: the server's voice mark reads "🎤 Voice message" in the user's language. */
export function lastMessageText(t: TFunction, lastMessage: string | null | undefined): string {
  if (lastMessage === VOICE_MESSAGE_MARK) return `${VOICE_MESSAGE_MARK} ${t("tickets.voiceMessage")}`;
  return lastMessage ?? "";
}
