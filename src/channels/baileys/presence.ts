import { type BaileysEventMap, isJidGroup } from "baileys";
import { CHAT_PRESENCES, type ChatPresence } from "../../shared/contracts/presence";
import type { PresenceUpdate } from "../types";
import { addressOf, isIgnoredJid } from "./jid";

/** The presences of a `presence.update` in 1:1 chats (group members typing are not shown). */
export function mapPresence(update: BaileysEventMap["presence.update"]): PresenceUpdate[] {
  if (isIgnoredJid(update.id) || isJidGroup(update.id)) return [];
  const chatId = addressOf(update.id, undefined);
  if (!chatId) return [];
  return Object.values(update.presences).flatMap((p) =>
    CHAT_PRESENCES.includes(p.lastKnownPresence as ChatPresence)
      ? [{ chatId, state: p.lastKnownPresence as ChatPresence }]
      : [],
  );
}
