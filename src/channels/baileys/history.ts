import type { WAMessage } from "baileys";
import type { NormalizedMessage } from "../types";
import { hasMedia, readUpsert, type LidToPn } from "./map";

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
