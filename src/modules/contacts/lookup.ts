import { first, type Reader } from "../../db/client";
import { and, eq, inArray, sql } from "drizzle-orm";
import { lidOfAddress } from "../../shared/address";
import { eachId, gatheredById, lookupEachKey } from "../../db/gathered";
import { prepared } from "../../db/prepared";
import { amongIdList, idList } from "../../db/index-hints";
import { type ContactRow, contactExtraInfo, contacts } from "../../db/tables";

/** The contact row by id. */
export async function findContact(db: Reader, id: number): Promise<ContactRow | undefined> {
  return await gatheredContact(db, id);
}

const contactsEachId = prepared((db) =>
  lookupEachKey(db, eachId("ids"), db.select().from(contacts).where(sql`${contacts.id} = k.id`)),
);

const contactById = prepared((db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.id, sql.placeholder("id")))
    .prepare(),
);

/** The contacts of a batch by id (see gathered). */
const gatheredContact = gatheredById<ContactRow>(contactById, contactsEachId);

/** The contact holding this phone number (or group id). */
export async function contactByNumber(db: Reader, number: string): Promise<ContactRow | undefined> {
  return (await contactWithNumber(db).get({ number })) as ContactRow | undefined;
}

/** The contact holding this LID. */
export async function contactByLid(db: Reader, lid: string): Promise<ContactRow | undefined> {
  return (await contactWithLid(db).get({ lid })) as ContactRow | undefined;
}

const contactWithNumber = prepared((db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.number, sql.placeholder("number")))
    .prepare(),
);

const contactWithLid = prepared((db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.lid, sql.placeholder("lid")))
    .prepare(),
);

/** True when the contact exists. */
export async function contactExists(db: Reader, id: number): Promise<boolean> {
  return !!(await first(db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, id))));
}

/** What a chat with the contact is addressed by (see contactAddress); undefined when there is no such contact. */
export async function contactChat(
  db: Reader,
  id: number,
): Promise<Pick<ContactRow, "number" | "lid" | "isGroup"> | undefined> {
  return await first(
    db
      .select({ number: contacts.number, lid: contacts.lid, isGroup: contacts.isGroup })
      .from(contacts)
      .where(eq(contacts.id, id)),
  );
}

/** The id of the 1:1 contact a network address names (phone digits, or `lid:<digits>`). */
export async function contactIdByAddress(db: Reader, address: string): Promise<number | undefined> {
  const lid = lidOfAddress(address);
  const where = lid ? eq(contacts.lid, lid) : and(eq(contacts.number, address), eq(contacts.isGroup, false));
  return (await first(db.select({ id: contacts.id }).from(contacts).where(where)))?.id;
}

/** The id of a contact holding one of these numbers. */
export async function contactIdByNumbers(db: Reader, numbers: string[]): Promise<number | undefined> {
  return (await first(db.select({ id: contacts.id }).from(contacts).where(inArray(contacts.number, numbers))))?.id;
}

/** A contact as the lists that show it need it. */
export type ContactSummary = Pick<ContactRow, "id" | "name" | "number" | "profilePicUrl" | "isGroup">;

/** The contacts among `ids` that exist. */
export async function contactSummaries(db: Reader, ids: readonly number[]): Promise<ContactSummary[]> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return await contactSummaryById(db).all({ id: distinct[0] });
  return await contactSummariesByIds(db).all({ ids: idList(distinct) });
}

const contactSummary = () => ({
  id: contacts.id,
  name: contacts.name,
  number: contacts.number,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
});

const contactSummariesByIds = prepared((db) =>
  db.select(contactSummary()).from(contacts).where(amongIdList(contacts.id, "ids")).prepare(),
);

const contactSummaryById = prepared((db) =>
  db
    .select(contactSummary())
    .from(contacts)
    .where(eq(contacts.id, sql.placeholder("id")))
    .prepare(),
);

export type ContactExtraInfo = { id: number; name: string; value: string };

/** The contact's extra fields, in the order they were added. */
export async function extraInfoOf(db: Reader, contactId: number): Promise<ContactExtraInfo[]> {
  return await extraInfoOfContact(db).all({ contactId });
}

const extraInfoOfContact = prepared((db) =>
  db
    .select({ id: contactExtraInfo.id, name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(eq(contactExtraInfo.contactId, sql.placeholder("contactId")))
    .orderBy(contactExtraInfo.id)
    .prepare(),
);
