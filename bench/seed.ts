import { type Db, execute, one, sqliteClient } from "../src/db/client";
/**
 * A large, realistic database for the benchmark and for manual runs: contacts with Portuguese and Spanish names,
 * tickets in a few queues (about 3 % open, 3 % pending, the rest closed), tags, unread counts, agents, and message
 * bodies in Portuguese, Spanish and English. On SQLite rows go in through prepared statements named after the drizzle
 * schema, in one transaction, with the full-text triggers set aside and the indexes rebuilt once at the end; on
 * PostgreSQL (DATABASE_URL) through multi-row inserts.
 *
 * `bun bench/seed.ts <dir> [tickets] [messagesPerTicket]` builds a migrated `<dir>/zapdesk.sqlite` with an admin
 * (ADMIN_EMAIL / ADMIN_PASSWORD, else admin@example.com / admin-password) for running the server against it
 * (`DATA_DIR=<dir> npm start`).
 */
import type { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  connections,
  contacts,
  messages,
  onPostgres,
  queues,
  tags,
  ticketEvents,
  tickets,
  ticketTags,
  userQueues,
  users,
} from "../src/db/tables";

export interface SeedOptions {
  tickets?: number;
  messagesPerTicket?: number;
  /** The newest ticket's last activity (epoch ms); tickets spread over the year before it. */
  now?: number;
}

export interface SeedSummary {
  tickets: number;
  messages: number;
  ms: number;
  queueIds: number[];
  tagIds: number[];
  agentIds: number[];
  connectionId: number;
}

const FIRST = [
  "João",
  "Conceição",
  "José",
  "María",
  "Antônio",
  "Sebastián",
  "Inês",
  "Gonçalo",
  "Andrés",
  "Lúcia",
  "Mônica",
  "Jesús",
  "Ângela",
  "Ramón",
  "Fátima",
  "Álvaro",
  "Débora",
  "Íñigo",
  "Tânia",
  "Raúl",
  "Ana",
  "Pedro",
  "Carmen",
  "Luis",
  "Beatriz",
  "Marcos",
  "Sofía",
  "Thiago",
  "Valentina",
  "Héctor",
];
const LAST = [
  "Muñoz",
  "Conceição",
  "Araújo",
  "Gómez",
  "Simões",
  "Peña",
  "Gonçalves",
  "Núñez",
  "Brandão",
  "Ibáñez",
  "Magalhães",
  "Rodríguez",
  "Assunção",
  "Sánchez",
  "Falcão",
  "Hernández",
  "Silva",
  "Souza",
  "Oliveira",
  "Pérez",
  "Lima",
  "García",
  "Costa",
  "Martínez",
  "Ribeiro",
  "López",
  "Almeida",
  "Díaz",
  "Carvalho",
  "Romero",
];
const OPENERS = [
  "Olá",
  "Bom dia",
  "Boa tarde",
  "Hola",
  "Buenos días",
  "Buenas tardes",
  "Hi",
  "Hello",
  "Oi",
  "Good morning",
];
const PHRASES = [
  "preciso de ajuda com o pedido",
  "quando chega a minha encomenda?",
  "a entrega atrasou de novo",
  "gostaria de trocar o produto",
  "o pagamento não foi aprovado",
  "qual é o prazo de devolução?",
  "não recebi a nota fiscal",
  "obrigado pela atenção",
  "¿dónde está mi paquete?",
  "necesito cambiar la dirección de envío",
  "el pago fue rechazado",
  "quiero cancelar la suscripción",
  "¿cuánto cuesta el envío a Córdoba?",
  "muchas gracias por la ayuda",
  "my order has not arrived yet",
  "can I change the delivery address?",
  "the payment went through twice",
  "thanks for the quick answer",
  "the invoice is wrong",
  "please send the tracking number",
];
const EXTRAS = [
  "São Paulo",
  "Belém",
  "Florianópolis",
  "Málaga",
  "Bogotá",
  "Medellín",
  "Cancún",
  "Ribeirão Preto",
  "Niterói",
  "Asunción",
  "açaí",
  "pão de queijo",
  "café",
  "camarão",
  "jalapeño",
  "piñata",
  "coração",
  "atenção",
  "promoção",
  "aniversário",
  "garantía",
  "reembolso",
  "estorno",
  "boleto",
  "PIX",
  "cartão",
  "tarjeta",
  "invoice",
  "refund",
  "voucher",
];
const REPLIES = [
  "Claro, vou verificar",
  "Un momento, por favor",
  "Sure, let me check",
  "Já resolvi aqui",
  "Ya está solucionado",
  "All set now",
  "Pode me passar o CPF?",
  "¿Me pasas tu número de pedido?",
  "Could you send a photo?",
  "Encaminhei para o financeiro",
];

/** A small deterministic generator (mulberry32), so every run seeds the same database. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `INSERT INTO <table> (<columns>) VALUES (?, …)` with the names the schema gives the table and its columns. */
function insertInto(client: Database, table: SQLiteTable, columns: SQLiteColumn[]) {
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  const marks = columns.map(() => "?").join(", ");
  return client.prepare(`INSERT INTO "${getTableConfig(table).name}" (${names}) VALUES (${marks})`);
}

type Dated = { createdAt: Date; updatedAt: Date };
type ContactRow = Dated & { id: number; name: string; number: string };
type TicketRow = Dated &
  Required<Pick<typeof tickets.$inferInsert, "status" | "userId" | "queueId" | "lastMessage">> & {
    id: number;
    contactId: number;
    whatsappId: number;
    unreadMessages: number;
  };
type MessageRow = Dated & {
  wid: string;
  whatsappId: number;
  ticketId: number;
  contactId: number;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  isPrivate: boolean;
  /** The agent who typed it (the ticket's agent's replies). */
  userId: number | null;
};
type EventRow = Pick<typeof ticketEvents.$inferInsert, "kind" | "cause" | "toQueueId" | "toStatus"> & {
  ticketId: number;
  at: Date;
  actorUserId: number | null;
  toUserId: number | null;
  toWhatsappId: number;
  value: number | null;
};
type TicketTagRow = { ticketId: number; tagId: number };

/** One ticket as the seed writes it: its contact, itself, its messages, its tags and its history. */
interface SeedTicket {
  contact: ContactRow;
  ticket: TicketRow;
  messages: MessageRow[];
  tags: TicketTagRow[];
  events: EventRow[];
}

/** Fills a migrated database with `tickets` tickets of `messagesPerTicket` messages each. */
export async function seedLarge(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const { tickets: total = 100_000, messagesPerTicket = 10, now = Date.now() } = options;
  const started = performance.now();
  const queueIds: number[] = [];
  for (const [i, name] of ["Vendas", "Suporte", "Financeiro"].entries()) {
    const queue = await one(
      db
        .insert(queues)
        .values({ name, color: ["#1e88e5", "#43a047", "#fb8c00"][i]! })
        .returning(),
    );
    queueIds.push(queue.id);
  }
  const tagIds: number[] = [];
  for (const name of ["vip", "atraso", "reembolso", "urgente", "atacado"])
    tagIds.push((await one(db.insert(tags).values({ name }).returning())).id);
  const connectionId = (
    await one(db.insert(connections).values({ name: "Seed", provider: "sandbox", isDefault: true }).returning())
  ).id;
  const agentIds: number[] = [];
  for (let i = 0; i < 8; i++) {
    const id = (
      await one(
        db
          .insert(users)
          .values({ name: `Agente ${i + 1}`, email: `agent${i + 1}@seed.example`, passwordHash: "!" })
          .returning(),
      )
    ).id;
    await db.insert(userQueues).values({ userId: id, queueId: queueIds[i % queueIds.length]! });
    agentIds.push(id);
  }
  const rows = seedTickets({ total, messagesPerTicket, now, queueIds, tagIds, agentIds, connectionId });
  if (onPostgres) await writePostgres(db, rows);
  else writeSqlite(db, rows);
  return {
    tickets: total,
    messages: total * messagesPerTicket,
    ms: performance.now() - started,
    queueIds,
    tagIds,
    agentIds,
    connectionId,
  };
}

/** The tickets of a year, oldest first (so ids grow with time as in a live database), each with its contact. */
function* seedTickets(o: {
  total: number;
  messagesPerTicket: number;
  now: number;
  queueIds: number[];
  tagIds: number[];
  agentIds: number[];
  connectionId: number;
}): Generator<SeedTicket> {
  const rnd = random(12);
  // The history draws from its own sequence, so the tickets and messages stay those of earlier seeds.
  const rndHistory = random(34);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const year = 365 * 24 * 3600_000;
  for (let i = 0; i < o.total; i++) {
    const id = i + 1;
    const start = new Date(o.now - year + Math.floor((i / o.total) * year));
    const name = `${pick(FIRST)} ${pick(LAST)}${rnd() < 0.3 ? ` ${pick(LAST)}` : ""}`;
    const number = `55${11 + (i % 80)}9${String(10_000_000 + i * 7).slice(-8)}`;
    const r = rnd();
    const status = r < 0.03 ? "open" : r < 0.06 ? "pending" : "closed";
    const queueId = rnd() < 0.1 ? null : pick(o.queueIds);
    const userId = status === "pending" ? null : pick(o.agentIds);
    const unreadMessages = status === "pending" ? 1 + Math.floor(rnd() * 5) : status === "open" && rnd() < 0.3 ? 2 : 0;
    let at = start.getTime();
    const list: MessageRow[] = [];
    for (let m = 0; m < o.messagesPerTicket; m++) {
      const fromMe = m % 2 === 1;
      const isPrivate = fromMe && rnd() < 0.03;
      at += 1000 + Math.floor(rnd() * 120_000);
      const body = fromMe ? `${pick(REPLIES)}, ${pick(FIRST)}.` : messageBody(pick, rnd, id, m);
      const time = new Date(at);
      list.push({
        wid: `S${id}-${m}`,
        whatsappId: o.connectionId,
        ticketId: id,
        contactId: id,
        body,
        fromMe,
        read: true,
        ack: 3,
        isPrivate,
        userId: fromMe ? userId : null,
        createdAt: time,
        updatedAt: time,
      });
    }
    const tagged: TicketTagRow[] = [];
    if (rnd() < 0.1) {
      const tag = pick(o.tagIds);
      tagged.push({ ticketId: id, tagId: tag });
      if (rnd() < 0.3) tagged.push({ ticketId: id, tagId: o.tagIds[(o.tagIds.indexOf(tag) + 1) % o.tagIds.length]! });
    }
    yield {
      contact: { id, name, number, createdAt: start, updatedAt: start },
      ticket: {
        id,
        contactId: id,
        status,
        userId,
        queueId,
        whatsappId: o.connectionId,
        unreadMessages,
        lastMessage: list.at(-1)?.body ?? "",
        createdAt: start,
        updatedAt: new Date(at),
      },
      messages: list,
      tags: tagged,
      events: historyOf({ id, status, userId, queueId, whatsappId: o.connectionId, messages: list }, rndHistory),
    };
  }
}

/**
 * A ticket's history as the reports read it: created (in its queue, waiting), the first response by its agent
 * after the customer's first message, resolved for a closed ticket, a rating for 30 % of those, an SLA breach for 5 %.
 */
function historyOf(
  t: {
    id: number;
    status: string;
    userId: number | null;
    queueId: number | null;
    whatsappId: number;
    messages: MessageRow[];
  },
  rnd: () => number,
): EventRow[] {
  const first = t.messages[0]!.createdAt;
  const last = t.messages.at(-1)!.createdAt;
  const event = (kind: EventRow["kind"], at: Date, userId: number | null, value: number | null = null): EventRow => ({
    ticketId: t.id,
    kind,
    cause: userId === null ? "customer" : "agent",
    at,
    actorUserId: kind === "created" || kind === "sla_breached" || kind === "rated" ? null : userId,
    toStatus: kind === "resolved" ? "closed" : kind === "created" ? "pending" : "open",
    toUserId: kind === "created" ? null : userId,
    toQueueId: t.queueId,
    toWhatsappId: t.whatsappId,
    value,
  });
  const events = [event("created", first, null)];
  // Its first agent accepted it as it came in (the reports credit them with its creation).
  if (t.userId !== null) events.push(event("accepted", first, t.userId, 1));
  const reply = t.messages.find((m) => m.userId !== null);
  if (reply && t.userId !== null)
    events.push(event("first_response", reply.createdAt, t.userId, reply.createdAt.getTime() - first.getTime()));
  if (t.status === "closed") {
    events.push(event("resolved", last, t.userId, last.getTime() - first.getTime()));
    if (rnd() < 0.3)
      events.push(event("rated", new Date(last.getTime() + 60_000), t.userId, 1 + Math.floor(rnd() * 5)));
  }
  if (rnd() < 0.05) events.push(event("sla_breached", new Date(first.getTime() + 30 * 60_000), t.userId));
  return events;
}

/**
 * SQLite: prepared statements named after the drizzle schema, in one transaction, with the full-text triggers set
 * aside and the indexes rebuilt once at the end.
 */
function writeSqlite(db: Db, rows: Iterable<SeedTicket>) {
  const client = sqliteClient(db);
  const triggers = setTriggersAside(client);
  const addContact = insertInto(client, contacts, [
    contacts.id,
    contacts.name,
    contacts.number,
    contacts.createdAt,
    contacts.updatedAt,
  ]);
  const addTicket = insertInto(client, tickets, [
    tickets.id,
    tickets.contactId,
    tickets.status,
    tickets.userId,
    tickets.queueId,
    tickets.whatsappId,
    tickets.unreadMessages,
    tickets.lastMessage,
    tickets.createdAt,
    tickets.updatedAt,
  ]);
  const addMessage = insertInto(client, messages, [
    messages.wid,
    messages.whatsappId,
    messages.ticketId,
    messages.contactId,
    messages.body,
    messages.fromMe,
    messages.read,
    messages.ack,
    messages.isPrivate,
    messages.userId,
    messages.createdAt,
    messages.updatedAt,
  ]);
  const addEvent = insertInto(client, ticketEvents, [
    ticketEvents.ticketId,
    ticketEvents.kind,
    ticketEvents.cause,
    ticketEvents.at,
    ticketEvents.actorUserId,
    ticketEvents.toStatus,
    ticketEvents.toUserId,
    ticketEvents.toQueueId,
    ticketEvents.toWhatsappId,
    ticketEvents.value,
  ]);
  const addTag = insertInto(client, ticketTags, [ticketTags.ticketId, ticketTags.tagId]);
  const ms = (at: Date) => at.getTime();
  client.transaction(() => {
    for (const { contact: c, ticket: t, messages: list, tags: tagged, events } of rows) {
      addContact.run(c.id, c.name, c.number, ms(c.createdAt), ms(c.updatedAt));
      addTicket.run(
        t.id,
        t.contactId,
        t.status,
        t.userId,
        t.queueId,
        t.whatsappId,
        t.unreadMessages,
        t.lastMessage,
        ms(t.createdAt),
        ms(t.updatedAt),
      );
      for (const m of list)
        addMessage.run(
          m.wid,
          m.whatsappId,
          m.ticketId,
          m.contactId,
          m.body,
          m.fromMe,
          m.read,
          m.ack,
          m.isPrivate,
          m.userId,
          ms(m.createdAt),
          ms(m.updatedAt),
        );
      for (const tag of tagged) addTag.run(tag.ticketId, tag.tagId);
      for (const e of events)
        addEvent.run(
          e.ticketId,
          e.kind,
          e.cause,
          ms(e.at),
          e.actorUserId,
          e.toStatus ?? null,
          e.toUserId,
          e.toQueueId ?? null,
          e.toWhatsappId,
          e.value,
        );
    }
    restoreTriggers(client, triggers);
  })();
}

/** PostgreSQL: multi-row inserts through drizzle, a few thousand rows each, then the id sequences moved past them. */
async function writePostgres(db: Db, rows: Iterable<SeedTicket>) {
  const batch: SeedTicket[] = [];
  const flush = async () => {
    await db.insert(contacts).values(batch.map((t) => t.contact));
    await db.insert(tickets).values(batch.map((t) => t.ticket));
    await db.insert(messages).values(batch.flatMap((t) => t.messages));
    const tagged = batch.flatMap((t) => t.tags);
    if (tagged.length) await db.insert(ticketTags).values(tagged);
    await db.insert(ticketEvents).values(batch.flatMap((t) => t.events));
    batch.length = 0;
  };
  for (const t of rows) if (batch.push(t) === 500) await flush();
  if (batch.length) await flush();
  // Fresh statistics and visibility, as autovacuum would gather soon after such a load: the planner's choices
  // depend on them, and index-only scans on the pages it has marked all-visible.
  await execute(db, sql`vacuum analyze`);
  for (const table of ["contacts", "tickets"])
    await execute(
      db,
      sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.identifier(table)}))`,
    );
}

/** An inbound body: a greeting, a phrase, sometimes a place or product, sometimes an order number (rare words). */
function messageBody(pick: <T>(list: readonly T[]) => T, rnd: () => number, ticket: number, m: number) {
  const parts = [m === 0 ? pick(OPENERS) : "", pick(PHRASES)];
  if (rnd() < 0.5) parts.push(pick(EXTRAS));
  if (rnd() < 0.1) parts.push(`#${100_000 + ticket * 3 + m}`);
  return parts.filter(Boolean).join(", ");
}

/**
 * Drops the triggers that keep the full-text indexes and returns their SQL: maintaining the indexes row by row
 * costs more than rebuilding them once from the finished tables.
 */
function setTriggersAside(client: Database) {
  const rows = client
    .query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%fts%'")
    .all() as { name: string; sql: string }[];
  for (const t of rows) client.exec(`DROP TRIGGER "${t.name}"`);
  return rows;
}

/** Rebuilds every full-text table from its content table and puts the triggers back. */
function restoreTriggers(client: Database, triggers: { sql: string }[]) {
  const fts = client.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5%'").all() as {
    name: string;
  }[];
  for (const { name } of fts) client.exec(`INSERT INTO "${name}"("${name}") VALUES ('rebuild')`);
  // The rebuild indexed every message and contact, those still waiting for the index among them.
  client.exec("DELETE FROM messages_fts_pending");
  client.exec("DELETE FROM contacts_fts_pending");
  for (const t of triggers) client.exec(t.sql);
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: bun bench/seed.ts <data dir> [tickets] [messagesPerTicket]");
    process.exit(1);
  }
  const { mkdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { openDatabase, closeDatabase } = await import("../src/db/client");
  const { runMigrations } = await import("../src/db/migrate");
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(join(dir, "zapdesk.sqlite"));
  runMigrations(db);
  const { hashPassword } = await import("../src/modules/auth/passwords");
  const email = process.env.ADMIN_EMAIL || "admin@example.com";
  const password = process.env.ADMIN_PASSWORD || "admin-password";
  const passwordHash = await hashPassword(password, { algorithm: "argon2id" });
  await db.insert(users).values({ name: "Admin", email, passwordHash, profile: "admin" });
  const summary = await seedLarge(db, {
    tickets: Number(process.argv[3] ?? 100_000),
    messagesPerTicket: Number(process.argv[4] ?? 10),
  });
  await closeDatabase(db);
  console.log(
    `seeded ${summary.tickets} tickets and ${summary.messages} messages in ${(summary.ms / 1000).toFixed(1)} s into ${dir}; admin ${email}`,
  );
}
