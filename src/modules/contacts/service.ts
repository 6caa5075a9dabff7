import { atomically, type Db, first, one } from "../../db/client";
import { and, asc, count, eq, inArray, notInArray, or } from "drizzle-orm";
import { contactExtraInfo, contacts, type ContactRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import type { ContactDto } from "../../shared/contracts/contacts";
import { checkField, cleanNumber, RULES } from "../../shared/validation";
import { connectionProvider, globalDefaultConnection } from "../connections/lookup";
import { phonebookOf } from "../connections/phonebook";
import { removeMediaFiles } from "../media/files";
import { mediaFilesOfTickets } from "../messages/records";
import { canSeeTicket } from "../tickets/access";
import { activeTicketsOfContact, ticketIdsOfContact } from "../tickets/records";
import { userDefaultConnection } from "../users/lookup";
import type { AuthUser } from "../../shared/auth-user";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { contactByNumber, findContact } from "./lookup";
import type { ContactModel } from "./model";

function assertEmail(email: string | undefined) {
  const problem = email ? checkField(RULES.contactEmail, email) : null;
  if (problem) throw FieldError.of("email", problem);
}

export { cleanNumber };

/** One page of contacts by name, searched by name or number. */
export async function listContacts(
  db: Db,
  opts: ContactModel.List,
): Promise<{ contacts: ContactDto[]; count: number; hasMore: boolean }> {
  const search = normalizeSearch(opts.searchParam);
  const where = search ? or(contains(contacts.name, search), contains(contacts.number, search)) : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = await db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(contacts).where(where)))?.n ?? 0;
  return { contacts: rows, count: total, hasMore: hasMore(total, offset, rows.length) };
}

/** Every contact whose name contains `name`, by name (pickers). */
export async function listAllContacts(db: Db, name?: string) {
  const search = normalizeSearch(name);
  return await db
    .select()
    .from(contacts)
    .where(search ? contains(contacts.name, search) : undefined)
    .orderBy(asc(contacts.name), asc(contacts.id));
}

export async function showContact(db: Db, id: number) {
  const row = await findContact(db, id);
  if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
  const extraInfo = await db
    .select()
    .from(contactExtraInfo)
    .where(eq(contactExtraInfo.contactId, id))
    .orderBy(asc(contactExtraInfo.id));
  return { ...row, extraInfo };
}

/** The global default connection's id, or ERR_NO_DEF_WAPP_FOUND. */
/** Asks WhatsApp through the default connection; returns the canonical digits it knows for `number`. */
async function checkOnWhatsapp(deps: AppDeps, number: string): Promise<string> {
  const connectionId = await globalDefaultConnection(deps.db);
  if (!(await deps.channels.isRunning(connectionId))) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
  let canonical: string | null;
  try {
    canonical = await deps.channels.checkNumber(connectionId, number);
  } catch {
    throw new AppError("ERR_WAPP_CHECK_CONTACT", 400);
  }
  if (!canonical) throw new AppError("ERR_WAPP_INVALID_CONTACT", 400);
  return canonical;
}

async function assertNumberFree(db: Db, number: string, exceptId?: number) {
  const row = await contactByNumber(db, number);
  if (row && row.id !== exceptId) throw new AppError("ERR_DUPLICATED_CONTACT", 400);
}

/** POST /contacts: the number must exist on WhatsApp; it is stored as WhatsApp writes it. */
export async function createContact(deps: AppDeps, input: ContactModel.Create) {
  assertEmail(input.email);
  const number = await checkOnWhatsapp(deps, cleanNumber(input.number));
  await assertNumberFree(deps.db, number);
  const id = await atomically(deps.db, async (tx) => {
    const row = await one(
      tx
        .insert(contacts)
        .values({ name: input.name.trim(), number, email: input.email?.trim() ?? "" })
        .returning({ id: contacts.id }),
    );
    const extra = input.extraInfo ?? [];
    if (extra.length)
      await tx
        .insert(contactExtraInfo)
        .values(extra.map((e) => ({ contactId: row.id, name: e.name, value: e.value ?? "" })));
    return row.id;
  });
  const contact = await showContact(deps.db, id);
  deps.events.emit("contact.created", { contact });
  return contact;
}

/**
 * Re-pointing a contact to another number redirects every reply of every ticket of that contact, so the caller
 * must see all of its active (open or pending) tickets: admins always do, an agent only when none of them sits
 * in a queue they are not in. Refused with 403 otherwise.
 */
async function assertMayChangeNumber(db: Pick<Db, "select">, actor: AuthUser, contactId: number) {
  const active = await activeTicketsOfContact(db, contactId);
  if (active.some((ticket) => !canSeeTicket(actor, ticket))) throw forbidden();
}

/**
 * PUT /contacts/:id: the number is checked only when it changes, and only by someone who may change it;
 * extra info is upserted by id, the rest removed.
 */
export async function updateContact(deps: AppDeps, actor: AuthUser, id: number, input: ContactModel.Update) {
  const current = await showContact(deps.db, id);
  assertEmail(input.email);
  let number = current.number;
  const numberChanges = input.number !== undefined && cleanNumber(input.number) !== current.number;
  if (numberChanges) {
    await assertMayChangeNumber(deps.db, actor, id);
    number = await checkOnWhatsapp(deps, cleanNumber(input.number!));
    await assertNumberFree(deps.db, number, id);
  }
  await atomically(deps.db, async (tx) => {
    // Checked again inside the write: a ticket may have opened in another queue while WhatsApp was asked.
    if (numberChanges) await assertMayChangeNumber(tx, actor, id);
    await tx
      .update(contacts)
      .set({
        number,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: input.email.trim() } : {}),
      })
      .where(eq(contacts.id, id));
    if (input.extraInfo === undefined) return;
    const ownIds = new Set(current.extraInfo.map((e) => e.id));
    const kept = input.extraInfo.filter((e) => e.id != null && ownIds.has(e.id)).map((e) => e.id!);
    await tx
      .delete(contactExtraInfo)
      .where(and(eq(contactExtraInfo.contactId, id), kept.length ? notInArray(contactExtraInfo.id, kept) : undefined));
    for (const e of input.extraInfo) {
      if (e.id != null && ownIds.has(e.id)) {
        await tx
          .update(contactExtraInfo)
          .set({ name: e.name, value: e.value ?? "" })
          .where(eq(contactExtraInfo.id, e.id));
      } else {
        await tx.insert(contactExtraInfo).values({ contactId: id, name: e.name, value: e.value ?? "" });
      }
    }
  });
  const contact = await showContact(deps.db, id);
  deps.events.emit("contact.updated", { contact });
  return contact;
}

/** DELETE /contacts/:id: tickets, messages and schedules go with it (foreign keys), then its messages' media files. */
export async function deleteContact(deps: AppDeps, id: number) {
  const files = await atomically(deps.db, async (tx) => {
    const media = await mediaFilesOfTickets(tx, await ticketIdsOfContact(tx, id));
    const row = await first(tx.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id }));
    if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
    return media;
  });
  removeMediaFiles(deps, files);
  deps.events.emit("contact.deleted", { contactId: id });
}

/** POST /contact: the contact with this number, created (without a WhatsApp check) when missing. */
export async function getOrCreateContact(deps: AppDeps, input: ContactModel.GetOrCreate): Promise<ContactRow> {
  assertEmail(input.email);
  const number = cleanNumber(input.number);
  const byNumber = () => contactByNumber(deps.db, number);
  const existing = await byNumber();
  if (existing) return existing;
  // Two callers creating one number at once: one inserts, the other gets that contact.
  const [contact] = await deps.db
    .insert(contacts)
    .values({ name: input.name.trim(), number, email: input.email?.trim() ?? "" })
    .onConflictDoNothing({ target: contacts.number })
    .returning();
  if (!contact) return (await byNumber())!;
  deps.events.emit("contact.created", { contact });
  return contact;
}

/**
 * POST /contacts/import: phone-book entries of the caller's (or the global) default connection become contacts. The
 * sandbox plays no phone with a phone book: its customers become contacts as they write.
 */
export async function importPhonebook(deps: AppDeps, actor: AuthUser) {
  const own = actor.whatsappId ?? (await userDefaultConnection(deps.db, actor.id));
  const connectionId = own ?? (await globalDefaultConnection(deps.db));
  if ((await connectionProvider(deps.db, connectionId)) === "sandbox")
    throw new AppError("ERR_SANDBOX_NO_PHONEBOOK", 400);
  const entries = await phonebookOf(deps.db, connectionId);
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
      ? (await deps.db.select({ number: contacts.number }).from(contacts).where(inArray(contacts.number, numbers))).map(
          (r) => r.number,
        )
      : [],
  );
  const fresh = numbers.filter((n) => !existing.has(n));
  skipped += numbers.length - fresh.length;
  const created = fresh.length
    ? await atomically(
        deps.db,
        async (tx) =>
          await tx
            .insert(contacts)
            .values(fresh.map((number) => ({ number, name: candidates.get(number)!.slice(0, 50) })))
            .returning(),
      )
    : [];
  for (const contact of created) deps.events.emit("contact.created", { contact });
  return { imported: created.length, skipped };
}
