import { type Contact, isJidGroup } from "baileys";
import type { NormalizedContact } from "../types";
import { isIgnoredJid, type LidToPn, lidOf, noPn, phoneOf } from "./jid";

/** Maps Baileys contacts, skipping groups, broadcasts and LID-only entries with no phone mapping. */
export function mapContacts(contacts: Partial<Contact>[], lidToPn: LidToPn = noPn): NormalizedContact[] {
  const out: NormalizedContact[] = [];
  for (const c of contacts) {
    if (!c.id || isJidGroup(c.id) || isIgnoredJid(c.id)) continue;
    const phone = phoneOf(c.id, c.phoneNumber, lidToPn) ?? (c.lid ? phoneOf(c.lid, undefined, lidToPn) : undefined);
    if (!phone) continue;
    const lid = lidOf(c.id, c.lid);
    const name = c.name || c.notify || c.verifiedName || undefined;
    out.push({ phone, ...(lid ? { lid } : {}), ...(name ? { name } : {}) });
  }
  return out;
}
