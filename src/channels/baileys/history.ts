import { type BaileysEventMap, isLidUser, toNumber, type WAMessage } from "baileys";
import type { NormalizedMessage } from "../types";
import { hasMedia } from "./content";
import type { LidToPn } from "./jid";
import type { Session } from "./session";
import { readUpsert } from "./upsert";

/**
 * The chat history the phone sends after pairing, when the connection imports it. Its LID↔phone pairs need
 * nothing here: Baileys stores them before this event, and its chats come as contacts too. Media is not
 * downloaded: a history holds days of it. History is not journaled: WhatsApp sends it once, at pairing, and a
 * crash during the import loses only what was not imported yet (New QR asks for it again).
 */
export async function reportHistory(s: Session, history: BaileysEventMap["messaging-history.set"], now: number) {
  const days = s.conn.historyDays;
  if (!days) return;
  const since = now - days * 86_400_000;
  const recent = history.messages.filter((m) => toNumber(m.messageTimestamp ?? 0) * 1000 >= since);
  if (!recent.length) return;
  const lidToPn = await lidResolver(
    s,
    recent.flatMap((m) => [m.key.remoteJid, m.key.participant]),
  );
  const messages = historyOf(recent, lidToPn);
  if (messages.length) await s.sink.onHistory?.(s.conn.id, messages);
}

/**
 * The chat messages of a history sync, read like live ones. Edits, reactions, revokes, calls and messages
 * still waiting for decryption are left out; media is marked unavailable instead of downloaded.
 */
export function historyOf(messages: WAMessage[], lidToPn: LidToPn): NormalizedMessage[] {
  const out: NormalizedMessage[] = [];
  for (const m of messages) {
    const read = readUpsert(m, lidToPn);
    if (read.type !== "message" || read.message.kind === "waiting") continue;
    if (hasMedia(m)) read.message.mediaUnavailable = true;
    out.push(read.message);
  }
  return out;
}

/** Looks up phone jids for the LIDs among `jids` that Baileys already knows. */
async function lidResolver(s: Session, jids: (string | null | undefined)[]): Promise<LidToPn> {
  const lids = [...new Set(jids.filter((j): j is string => !!j && !!isLidUser(j)))];
  const found = new Map<string, string>();
  for (const lid of lids) {
    const pn = await s.sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
    if (pn) found.set(lid, pn);
  }
  return (lid) => found.get(lid);
}
