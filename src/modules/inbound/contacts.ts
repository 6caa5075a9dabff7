import { eq, or } from "drizzle-orm";
import type { AppDeps } from "../../deps";
import { type ContactRow, contacts } from "../../db/schema";

/** A contact's picture is asked from the network at most this often (rule 24 Recommend). */
export const PICTURE_REFRESH_MS = 6 * 3600 * 1000;

export interface ContactInput {
  /** Phone digits, or the group id for groups. */
  number: string;
  lid?: string;
  /** Push name or group subject; used only when the contact is new (groups: kept in sync with the subject). */
  name?: string;
  isGroup: boolean;
}

/**
 * Finds the contact by number (or LID) or creates it (rule 23 with the Recommends of rule 24): the name comes
 * from the push name only when new; a learnt LID is recorded; `contact` is emitted only on a real change.
 */
export function findOrCreateContact(deps: AppDeps, input: ContactInput): ContactRow {
  const match = input.lid ? or(eq(contacts.number, input.number), eq(contacts.lid, input.lid)) : eq(contacts.number, input.number);
  const found = deps.db.select().from(contacts).where(match).all();
  const existing = found.find((c) => c.number === input.number) ?? found[0];
  if (existing) {
    const changes: Partial<ContactRow> = {};
    if (input.lid && !existing.lid && !found.some((c) => c.id !== existing.id && c.lid === input.lid)) changes.lid = input.lid;
    if (input.isGroup && input.name && input.name !== existing.name) changes.name = input.name;
    if (!Object.keys(changes).length) return existing;
    const updated = deps.db.update(contacts).set(changes).where(eq(contacts.id, existing.id)).returning().get()!;
    deps.hub.publish("all", "contact", { action: "update", contact: updated });
    return updated;
  }
  const created = deps.db
    .insert(contacts)
    .values({ number: input.number, lid: input.lid ?? null, name: input.name?.trim() || input.number, isGroup: input.isGroup })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!created) return deps.db.select().from(contacts).where(eq(contacts.number, input.number)).get()!;
  deps.hub.publish("all", "contact", { action: "create", contact: created });
  return created;
}

/** Refreshes the contact's picture when the last check is older than PICTURE_REFRESH_MS; emits only on change. */
export async function refreshPicture(deps: AppDeps, whatsappId: number, contact: ContactRow): Promise<void> {
  const now = deps.clock.now();
  if (contact.pictureCheckedAt && now - contact.pictureCheckedAt.getTime() < PICTURE_REFRESH_MS) return;
  let url = contact.profilePicUrl;
  try {
    url = (await deps.channels.profilePictureUrl(whatsappId, contact.number, contact.isGroup)) ?? "";
  } catch (error) {
    deps.log.debug("profile picture unavailable", { contactId: contact.id, error });
  }
  const updated = deps.db
    .update(contacts)
    .set({ pictureCheckedAt: new Date(now), profilePicUrl: url })
    .where(eq(contacts.id, contact.id))
    .returning()
    .get();
  if (updated && url !== contact.profilePicUrl) deps.hub.publish("all", "contact", { action: "update", contact: updated });
}
