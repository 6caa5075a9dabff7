import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  type WAMessageKey,
} from "baileys";
import { lidAddress, lidOfAddress } from "../../shared/address";
import type { ReadRef } from "../types";

/** Resolves a LID jid to a phone-number jid when Baileys already knows the pair. */
export type LidToPn = (lidJid: string) => string | undefined;

/** A resolver that knows no pair. */
export const noPn: LidToPn = () => undefined;

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

/** The LID digits of an identity given as a jid and its alternate, when either is a LID. */
export function lidOf(jid: string | null | undefined, alt: string | null | undefined): string | undefined {
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

/** The jid of an inbox address (phone digits, `lid:<digits>` or a group id). */
export function toJid(to: string, isGroup: boolean) {
  if (isGroup) return `${to}@g.us`;
  const lid = lidOfAddress(to);
  return lid ? `${lid}@lid` : `${to.replace(/\D/g, "")}@s.whatsapp.net`;
}

/**
 * The key a read receipt names. It goes to the chat the message came in on: a customer who first wrote from their
 * LID and was merged into their phone contact is answered at the phone number, but their earlier messages were
 * received in the LID's chat, and WhatsApp takes a receipt only there. A stored jid of another kind of chat (none,
 * or an imported one) leaves the contact's chat; in a group the receipt names the message's sender.
 */
export function readKey(ref: ReadRef, chatJid: string, isGroup: boolean): WAMessageKey {
  const stored = ref.remoteJid;
  const sameKind = stored && (isGroup ? isJidGroup(stored) : isLidUser(stored) || isPnUser(stored));
  return {
    remoteJid: sameKind ? stored : chatJid,
    id: ref.id,
    fromMe: false,
    ...(isGroup && ref.participant ? { participant: ref.participant } : {}),
  };
}
