import { eq, inArray, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type ContactRow, contactExtraInfo, contacts } from "../../db/tables";

/** The contact row by id. */
export function findContact(db: Reader, id: number): ContactRow | undefined {
  return contactById(db).get({ id });
}

const contactById = prepared((db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.id, sql.placeholder("id")))
    .prepare(),
);

/** True when the contact exists. */
export function contactExists(db: Reader, id: number): boolean {
  return !!db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, id)).get();
}

/** What a chat with the contact is addressed by (see contactAddress); undefined when there is no such contact. */
export function contactChat(db: Reader, id: number): Pick<ContactRow, "number" | "lid" | "isGroup"> | undefined {
  return db
    .select({ number: contacts.number, lid: contacts.lid, isGroup: contacts.isGroup })
    .from(contacts)
    .where(eq(contacts.id, id))
    .get();
}

/** The id of a contact holding one of these numbers. */
export function contactIdByNumbers(db: Reader, numbers: string[]): number | undefined {
  return db.select({ id: contacts.id }).from(contacts).where(inArray(contacts.number, numbers)).get()?.id;
}

/** A contact as the lists that show it need it. */
export type ContactSummary = Pick<ContactRow, "id" | "name" | "number" | "profilePicUrl" | "isGroup">;

/** The contacts among `ids` that exist. */
export function contactSummaries(db: Reader, ids: readonly number[]): ContactSummary[] {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return contactSummaryById(db).all({ id: distinct[0] });
  return db.select(CONTACT_SUMMARY).from(contacts).where(inArray(contacts.id, distinct)).all();
}

const CONTACT_SUMMARY = {
  id: contacts.id,
  name: contacts.name,
  number: contacts.number,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
};

const contactSummaryById = prepared((db) =>
  db
    .select(CONTACT_SUMMARY)
    .from(contacts)
    .where(eq(contacts.id, sql.placeholder("id")))
    .prepare(),
);

/** The contact's extra fields, in the order they were added. */
export function extraInfoOf(db: Reader, contactId: number): { id: number; name: string; value: string }[] {
  return db
    .select({ id: contactExtraInfo.id, name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(eq(contactExtraInfo.contactId, contactId))
    .orderBy(contactExtraInfo.id)
    .all();
}
