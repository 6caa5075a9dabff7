import { and, asc, count, eq, inArray, notInArray, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contactExtraInfo, contacts, type ContactRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import type { ContactDto } from "../../shared/contracts/contacts";
import { checkField, cleanNumber, RULES } from "../../shared/validation";
import { globalDefaultConnection } from "../connections/lookup";
import { phonebookOf } from "../connections/phonebook";
import { removeMediaFiles } from "../media/files";
import { mediaFilesOfTickets } from "../messages/records";
import { canSeeTicket } from "../tickets/access";
import { activeTicketsOfContact, ticketIdsOfContact } from "../tickets/records";
import { userDefaultConnection } from "../users/lookup";
import type { AuthUser } from "../../shared/auth-user";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { findContact } from "./lookup";
import type { ContactModel } from "./model";

function assertEmail(email: string | undefined) {
  const problem = email ? checkField(RULES.contactEmail, email) : null;
  if (problem) throw FieldError.of("email", problem);
}

export { cleanNumber };

/** One page of contacts by name, searched by name or number. */
export function listContacts(
  db: Db,
  opts: ContactModel.List,
): { contacts: ContactDto[]; count: number; hasMore: boolean } {
  const search = normalizeSearch(opts.searchParam);
  const where = search ? or(contains(contacts.name, search), contains(contacts.number, search)) : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(contacts).where(where).get()?.n ?? 0;
  return { contacts: rows, count: total, hasMore: hasMore(total, offset, rows.length) };
}

/** Every contact whose name contains `name`, by name (pickers). */
export function listAllContacts(db: Db, name?: string) {
  const search = normalizeSearch(name);
  return db
    .select()
    .from(contacts)
    .where(search ? contains(contacts.name, search) : undefined)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .all();
}

export function showContact(db: Db, id: number) {
  const row = findContact(db, id);
  if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
  const extraInfo = db
    .select()
    .from(contactExtraInfo)
    .where(eq(contactExtraInfo.contactId, id))
    .orderBy(asc(contactExtraInfo.id))
    .all();
  return { ...row, extraInfo };
}

/** The global default connection's id, or ERR_NO_DEF_WAPP_FOUND. */
/** Asks WhatsApp through the default connection; returns the canonical digits it knows for `number`. */
async function checkOnWhatsapp(deps: AppDeps, number: string): Promise<string> {
  const connectionId = globalDefaultConnection(deps.db);
  if (!deps.channels.isRunning(connectionId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
  let canonical: string | null;
  try {
    canonical = await deps.channels.checkNumber(connectionId, number);
  } catch {
    throw new AppError("ERR_WAPP_CHECK_CONTACT", 400);
  }
  if (!canonical) throw new AppError("ERR_WAPP_INVALID_CONTACT", 400);
  return canonical;
}

function assertNumberFree(db: Db, number: string, exceptId?: number) {
  const row = db.select({ id: contacts.id }).from(contacts).where(eq(contacts.number, number)).get();
  if (row && row.id !== exceptId) throw new AppError("ERR_DUPLICATED_CONTACT", 400);
}

/** POST /contacts: the number must exist on WhatsApp; it is stored as WhatsApp writes it. */
export async function createContact(deps: AppDeps, input: ContactModel.Create) {
  assertEmail(input.email);
  const number = await checkOnWhatsapp(deps, cleanNumber(input.number));
  assertNumberFree(deps.db, number);
  const id = deps.db.transaction((tx) => {
    const row = tx
      .insert(contacts)
      .values({ name: input.name.trim(), number, email: input.email?.trim() ?? "" })
      .returning({ id: contacts.id })
      .get();
    const extra = input.extraInfo ?? [];
    if (extra.length)
      tx.insert(contactExtraInfo)
        .values(extra.map((e) => ({ contactId: row.id, name: e.name, value: e.value ?? "" })))
        .run();
    return row.id;
  });
  const contact = showContact(deps.db, id);
  deps.events.emit("contact.created", { contact });
  return contact;
}

/**
 * Re-pointing a contact to another number redirects every reply of every ticket of that contact, so the caller
 * must see all of its active (open or pending) tickets: admins always do, an agent only when none of them sits
 * in a queue they are not in. Refused with 403 otherwise.
 */
function assertMayChangeNumber(db: Pick<Db, "select">, actor: AuthUser, contactId: number) {
  const active = activeTicketsOfContact(db, contactId);
  if (active.some((ticket) => !canSeeTicket(actor, ticket))) throw forbidden();
}

/**
 * PUT /contacts/:id: the number is checked only when it changes, and only by someone who may change it;
 * extra info is upserted by id, the rest removed.
 */
export async function updateContact(deps: AppDeps, actor: AuthUser, id: number, input: ContactModel.Update) {
  const current = showContact(deps.db, id);
  assertEmail(input.email);
  let number = current.number;
  const numberChanges = input.number !== undefined && cleanNumber(input.number) !== current.number;
  if (numberChanges) {
    assertMayChangeNumber(deps.db, actor, id);
    number = await checkOnWhatsapp(deps, cleanNumber(input.number!));
    assertNumberFree(deps.db, number, id);
  }
  deps.db.transaction((tx) => {
    // Checked again inside the write: a ticket may have opened in another queue while WhatsApp was asked.
    if (numberChanges) assertMayChangeNumber(tx, actor, id);
    tx.update(contacts)
      .set({
        number,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: input.email.trim() } : {}),
      })
      .where(eq(contacts.id, id))
      .run();
    if (input.extraInfo === undefined) return;
    const ownIds = new Set(current.extraInfo.map((e) => e.id));
    const kept = input.extraInfo.filter((e) => e.id != null && ownIds.has(e.id)).map((e) => e.id!);
    tx.delete(contactExtraInfo)
      .where(and(eq(contactExtraInfo.contactId, id), kept.length ? notInArray(contactExtraInfo.id, kept) : undefined))
      .run();
    for (const e of input.extraInfo) {
      if (e.id != null && ownIds.has(e.id)) {
        tx.update(contactExtraInfo)
          .set({ name: e.name, value: e.value ?? "" })
          .where(eq(contactExtraInfo.id, e.id))
          .run();
      } else {
        tx.insert(contactExtraInfo)
          .values({ contactId: id, name: e.name, value: e.value ?? "" })
          .run();
      }
    }
  });
  const contact = showContact(deps.db, id);
  deps.events.emit("contact.updated", { contact });
  return contact;
}

/** DELETE /contacts/:id: tickets, messages and schedules go with it (foreign keys), then its messages' media files. */
export function deleteContact(deps: AppDeps, id: number) {
  const files = deps.db.transaction((tx) => {
    const media = mediaFilesOfTickets(tx, ticketIdsOfContact(tx, id));
    const row = tx.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id }).get();
    if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
    return media;
  });
  removeMediaFiles(deps, files);
  deps.events.emit("contact.deleted", { contactId: id });
}

/** POST /contact: the contact with this number, created (without a WhatsApp check) when missing. */
export function getOrCreateContact(deps: AppDeps, input: ContactModel.GetOrCreate): ContactRow {
  assertEmail(input.email);
  const number = cleanNumber(input.number);
  const existing = deps.db.select().from(contacts).where(eq(contacts.number, number)).get();
  if (existing) return existing;
  const contact = deps.db
    .insert(contacts)
    .values({ name: input.name.trim(), number, email: input.email?.trim() ?? "" })
    .returning()
    .get();
  deps.events.emit("contact.created", { contact });
  return contact;
}

/** POST /contacts/import: phone-book entries of the caller's (or the global) default connection become contacts. */
export function importPhonebook(deps: AppDeps, actor: AuthUser) {
  const own = actor.whatsappId ?? userDefaultConnection(deps.db, actor.id);
  const connectionId = own ?? globalDefaultConnection(deps.db);
  const entries = phonebookOf(deps.db, connectionId);
  if (entries.length === 0) throw new AppError("ERR_NO_PHONEBOOK", 400);
  // Only real phone numbers: group ids and LID-only entries (no phone mapping) are skipped.
  const candidates = new Map<string, string>();
  let skipped = 0;
  for (const entry of entries) {
    const fromJid = entry.jid.endsWith("@s.whatsapp.net") ? entry.jid.split("@")[0]! : "";
    const phone = (entry.phone || fromJid).replace(/\D/g, "");
    const isGroup = entry.jid.endsWith("@g.us") || entry.jid === "status@broadcast";
    if (isGroup || phone.length < 8 || candidates.has(phone)) {
      skipped++;
      continue;
    }
    candidates.set(phone, entry.name?.trim() || phone);
  }
  const numbers = [...candidates.keys()];
  const existing = new Set(
    numbers.length
      ? deps.db
          .select({ number: contacts.number })
          .from(contacts)
          .where(inArray(contacts.number, numbers))
          .all()
          .map((r) => r.number)
      : [],
  );
  const fresh = numbers.filter((n) => !existing.has(n));
  skipped += numbers.length - fresh.length;
  const created = fresh.length
    ? deps.db.transaction((tx) =>
        tx
          .insert(contacts)
          .values(fresh.map((number) => ({ number, name: candidates.get(number)!.slice(0, 50) })))
          .returning()
          .all(),
      )
    : [];
  for (const contact of created) deps.events.emit("contact.created", { contact });
  return { imported: created.length, skipped };
}
