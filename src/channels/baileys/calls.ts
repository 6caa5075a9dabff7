import { toNumber, WAMessageStubType, type WACallEvent, type WAMessage, type WAMessageKey } from "baileys";
import type { CallEvent } from "../types";
import { addressOf, type LidToPn, noPn, phoneOf } from "./jid";

const MISSED_CALL_STUBS = new Set<number>([
  WAMessageStubType.CALL_MISSED_VOICE,
  WAMessageStubType.CALL_MISSED_VIDEO,
  WAMessageStubType.CALL_MISSED_GROUP_VOICE,
  WAMessageStubType.CALL_MISSED_GROUP_VIDEO,
]);

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
