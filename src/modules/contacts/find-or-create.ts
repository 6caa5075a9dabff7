import { first, type Reader } from "../../db/client";
import { eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import type { AppDeps } from "../../deps";
import { type ContactRow, contacts, storedInstant } from "../../db/tables";
import { contactAddress, lidOfAddress } from "../../shared/address";
import { lidFallbackName, linkLid } from "./lid";
import { contactByLid, contactByNumber, findContact } from "./lookup";

/** A contact's picture is asked from the network at most this often. */
export const PICTURE_REFRESH_MS = 6 * 3600 * 1000;

/** A contact as a connection reports it (a message sender, a chat, a caller). */
export interface ReportedContact {
  /** Phone digits, the group id for groups, or `lid:<digits>` for a person known only by their LID. */
  address: string;
  /** The person's LID digits, when the network reported one besides the phone number. */
  lid?: string;
  /** Push name or group subject; used only when the contact is new (groups: kept in sync with the subject). */
  name?: string;
  isGroup: boolean;
}

/**
 * Finds the contact by number (or LID) or creates it: the name comes
 * from the push name only when new; a person known only by a LID gets a contact without a number; a number
 * arriving with a LID links the two (see linkLid); `contact` is emitted only on a real change.
 */
export async function findOrCreateContact(deps: AppDeps, input: ReportedContact): Promise<ContactRow> {
  const lidOnly = input.isGroup ? undefined : lidOfAddress(input.address);
  if (lidOnly) return await findOrCreateLidContact(deps, lidOnly, input.name);
  const number = input.address;
  const linked = input.lid && !input.isGroup ? await linkLid(deps, number, input.lid) : undefined;
  const existing = linked ?? (await contactByNumber(deps.db, number));
  if (existing) {
    if (!input.isGroup || !input.name || input.name === existing.name) return existing;
    const updated = (await first(
      deps.db.update(contacts).set({ name: input.name }).where(eq(contacts.id, existing.id)).returning(),
    ))!;
    deps.events.emit("contact.updated", { contact: updated });
    return updated;
  }
  // A LID another contact holds stays with it: this number is then a different person for WhatsApp.
  const lidFree = input.lid && !input.isGroup && !(await contactByLid(deps.db, input.lid));
  return await create(
    deps,
    { number, lid: lidFree ? input.lid! : null, name: input.name?.trim() || number, isGroup: input.isGroup },
    () => contactByNumber(deps.db, number),
  );
}

/**
 * The contact findOrCreateContact would return without writing anything, when it is known: a number reported
 * without a LID or with the LID its contact already holds (a group only when its subject is unchanged).
 * Undefined when finding it may write.
 */
export async function knownContact(db: Reader, input: ReportedContact): Promise<ContactRow | undefined> {
  const number = numberToLookUp(input);
  return number === null ? undefined : knownAs(input, await contactByNumber(db, number));
}

/** The number knownContact looks a reported contact up by; null for a person known only by a LID. */
export function numberToLookUp(input: ReportedContact): string | null {
  return !input.isGroup && lidOfAddress(input.address) ? null : input.address;
}

/** knownContact's answer, given the contact holding the number it looked up (`existing`). */
export function knownAs(input: ReportedContact, existing: ContactRow | undefined): ContactRow | undefined {
  if (!existing || (input.lid && (input.isGroup || existing.lid !== input.lid))) return undefined;
  if (input.isGroup && input.name && input.name !== existing.name) return undefined;
  return existing;
}

/** The contact of a person known only by their LID, named by their push name. */
async function findOrCreateLidContact(deps: AppDeps, lid: string, name: string | undefined): Promise<ContactRow> {
  const existing = await contactByLid(deps.db, lid);
  const pushName = name?.trim();
  if (!existing)
    return await create(deps, { number: null, lid, name: pushName || lidFallbackName(lid), isGroup: false }, () =>
      contactByLid(deps.db, lid),
    );
  if (!pushName || existing.name !== lidFallbackName(lid)) return existing;
  const updated = (await first(
    deps.db.update(contacts).set({ name: pushName }).where(eq(contacts.id, existing.id)).returning(),
  ))!;
  deps.events.emit("contact.updated", { contact: updated });
  return updated;
}

async function create(
  deps: AppDeps,
  values: Pick<ContactRow, "number" | "lid" | "name" | "isGroup">,
  /** The contact that took the same number or LID first, when the insert finds one. */
  sameKey: () => Promise<ContactRow | undefined>,
): Promise<ContactRow> {
  const created = (await insertContact(deps.db).get(values)) as ContactRow | undefined;
  if (!created) return (await sameKey())!;
  deps.events.emit("contact.created", { contact: created });
  return created;
}

/**
 * The contact as it is now. A LID-only contact may have been merged into its phone contact meanwhile (by a
 * mapping that arrived while a message waited for its chat): it is then found by its LID.
 */
export async function currentContact(deps: Pick<AppDeps, "db">, contact: ContactRow): Promise<ContactRow> {
  const same = await findContact(deps.db, contact.id);
  if (same) return same;
  const merged = contact.lid ? await contactByLid(deps.db, contact.lid) : undefined;
  return merged ?? contact;
}

const insertContact = prepared((db) =>
  db
    .insert(contacts)
    .values({
      number: sql.placeholder("number"),
      lid: sql.placeholder("lid"),
      name: sql.placeholder("name"),
      isGroup: sql.placeholder("isGroup"),
    } as unknown as typeof contacts.$inferInsert)
    .onConflictDoNothing()
    .returning()
    .prepare(),
);

/** Refreshes the contact's picture when the last check is older than PICTURE_REFRESH_MS; emits only on change. */
export async function refreshPicture(deps: AppDeps, connectionId: number, contact: ContactRow): Promise<void> {
  const now = deps.clock.now();
  if (contact.pictureCheckedAt && now - contact.pictureCheckedAt.getTime() < PICTURE_REFRESH_MS) return;
  let url = contact.profilePicUrl;
  try {
    url = (await deps.channels.profilePictureUrl(connectionId, contactAddress(contact), contact.isGroup)) ?? "";
  } catch (error) {
    deps.log.debug("profile picture unavailable", { contactId: contact.id, error });
  }
  const updated = (await pictureChecked(deps.db).get({
    id: contact.id,
    checkedAt: storedInstant(now),
    url,
    // What the column's own update default would write.
    updatedAt: storedInstant(new Date()),
  })) as ContactRow | undefined;
  if (updated && url !== contact.profilePicUrl) deps.events.emit("contact.updated", { contact: updated });
}

const pictureChecked = prepared((db) =>
  db
    .update(contacts)
    .set({
      pictureCheckedAt: sql`${sql.placeholder("checkedAt")}`,
      profilePicUrl: sql`${sql.placeholder("url")}`,
      updatedAt: sql`${sql.placeholder("updatedAt")}`,
    })
    .where(eq(contacts.id, sql.placeholder("id")))
    .returning()
    .prepare(),
);
