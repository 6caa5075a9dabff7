// @engine once
import { first, one, sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messages, tickets } from "../src/db/tables";
import { indexNewMessages } from "../src/db/search-index";
import { searchHistory } from "../src/modules/messages/search";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const waiting = (ctx: TestContext) =>
  (sqliteClient(ctx.db).query("SELECT count(*) AS n FROM messages_fts_pending").get() as { n: number }).n;

/** The rows the full-text index holds for a word (FTS5 reads them from the index alone, not from `messages`). */
const indexed = (ctx: TestContext, word: string) =>
  (
    sqliteClient(ctx.db)
      .query("SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid")
      .all(`"${word}"`) as { id: number }[]
  ).map((r) => r.id);

/** FTS5's own check that its index holds exactly what `messages` holds (throws when it does not). */
const checkIndex = (ctx: TestContext) =>
  sqliteClient(ctx.db).run("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)");

let seq = 0;
async function aTicket(ctx: TestContext) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Contact ${++seq}`, number: `5511977${String(seq).padStart(6, "0")}` })
      .returning(),
  );
  return await one(ctx.db.insert(tickets).values({ status: "pending", contactId: contact.id }).returning());
}

const insertMessage = async (ctx: TestContext, ticketId: number, body: string) =>
  await one(
    ctx.db
      .insert(messages)
      .values({ wid: `idx${++seq}`, ticketId, body })
      .returning(),
  );

describe("full-text index of message bodies", () => {
  test("inbound messages wait for the index until 64 do, then the batch that reaches 64 indexes them all; a search finds those still waiting", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const send = (from: string, body: string) =>
      call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, { token, body: { from, body } });
    const sent = await Promise.all(
      ["orçamento da cozinha", "orcamento do banheiro", "outra coisa"].map((body, i) => send(`551198888000${i}`, body)),
    );
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(waiting(ctx)).toBe(3);
    expect(indexed(ctx, "orcamento")).toEqual([]);
    const found = await call(ctx.app, "GET", "/api/tickets?showAll=true&searchParam=orcamento", { token });
    expect(found.json.tickets).toHaveLength(2);
    expect(waiting(ctx)).toBe(0);
    expect(indexed(ctx, "orcamento")).toHaveLength(2);

    for (let i = 1; i < 64; i++) expect((await send("5511988880009", `lembrete ${i}`)).status).toBe(200);
    expect(waiting(ctx)).toBe(63);
    expect((await send("5511988880009", "lembrete 64")).status).toBe(200);
    expect(waiting(ctx)).toBe(0);
    expect(indexed(ctx, "lembrete")).toHaveLength(64);
    checkIndex(ctx);
  });

  test("a message written by another path waits, and is found by the next search all the same", async () => {
    const ctx = await makeTestApp();
    const ticket = await aTicket(ctx);
    const message = await insertMessage(ctx, ticket.id, "Pedido de reembolso aprovado");
    expect(waiting(ctx)).toBe(1);
    expect(indexed(ctx, "reembolso")).toEqual([]);
    expect((await searchHistory(ctx.db, [ticket.id], "reembolso")).ids).toEqual([message.id]);
    expect(waiting(ctx)).toBe(0);
    checkIndex(ctx);
  });

  test("a waiting message deleted or edited before it is indexed leaves no trace of its old text", async () => {
    const ctx = await makeTestApp();
    const ticket = await aTicket(ctx);
    const gone = await insertMessage(ctx, ticket.id, "mensagem apagada");
    const edited = await insertMessage(ctx, ticket.id, "texto antigo");
    await ctx.db.delete(messages).where(eq(messages.id, gone.id));
    await ctx.db.update(messages).set({ body: "texto novo" }).where(eq(messages.id, edited.id));
    await indexNewMessages(ctx.db);
    expect(indexed(ctx, "apagada")).toEqual([]);
    expect(indexed(ctx, "antigo")).toEqual([]);
    expect(indexed(ctx, "novo")).toEqual([edited.id]);
    checkIndex(ctx);
  });

  test("an indexed message deleted or edited afterwards is taken out of the index or found by its new text", async () => {
    const ctx = await makeTestApp();
    const ticket = await aTicket(ctx);
    const gone = await insertMessage(ctx, ticket.id, "mensagem apagada");
    const edited = await insertMessage(ctx, ticket.id, "texto antigo");
    await indexNewMessages(ctx.db);
    await ctx.db.delete(messages).where(eq(messages.id, gone.id));
    await ctx.db.update(messages).set({ body: "texto novo" }).where(eq(messages.id, edited.id));
    expect(indexed(ctx, "apagada")).toEqual([]);
    expect(indexed(ctx, "antigo")).toEqual([]);
    expect(indexed(ctx, "novo")).toEqual([edited.id]);
    checkIndex(ctx);
  });
});

const contactsWaiting = (ctx: TestContext) =>
  (sqliteClient(ctx.db).query("SELECT count(*) AS n FROM contacts_fts_pending").get() as { n: number }).n;

const contactsIndexed = (ctx: TestContext, text: string) =>
  (
    sqliteClient(ctx.db)
      .query("SELECT rowid AS id FROM contacts_fts WHERE contacts_fts MATCH ? ORDER BY rowid")
      .all(`"${text}"`) as { id: number }[]
  ).map((r) => r.id);

describe("full-text index of contact names and numbers", () => {
  test("a new chat's contact waits for the index with its message, and the next ticket search finds it", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token,
      body: { from: "5511988770001", name: "Conceição", body: "oi" },
    });
    expect(res.status).toBe(200);
    expect(contactsWaiting(ctx)).toBe(1);
    const found = await call(ctx.app, "GET", "/api/tickets?showAll=true&searchParam=conceicao", { token });
    expect(found.json.tickets).toHaveLength(1);
    expect(contactsWaiting(ctx)).toBe(0);
    expect(contactsIndexed(ctx, "conceicao")).toHaveLength(1);
    sqliteClient(ctx.db).run("INSERT INTO contacts_fts(contacts_fts, rank) VALUES ('integrity-check', 1)");
  });

  test("a contact created by another path waits, is found by the next ticket search, and a rename or delete while waiting leaves no trace", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const ticket = await aTicket(ctx);
    const renamed = await one(
      ctx.db.insert(contacts).values({ name: "Nome Antigo", number: "5511900001111" }).returning(),
    );
    const gone = await one(ctx.db.insert(contacts).values({ name: "Apagado", number: "5511900002222" }).returning());
    await ctx.db.update(contacts).set({ name: "Nome Novo" }).where(eq(contacts.id, renamed.id));
    await ctx.db.delete(contacts).where(eq(contacts.id, gone.id));
    expect(contactsWaiting(ctx)).toBe(2);
    const contact = (await first(ctx.db.select().from(contacts).where(eq(contacts.id, ticket.contactId))))!;
    const res = await call(
      ctx.app,
      "GET",
      `/api/tickets?showAll=true&searchParam=${encodeURIComponent(contact.name)}`,
      { token },
    );
    expect(res.json.tickets.map((t: { id: number }) => t.id)).toEqual([ticket.id]);
    expect(contactsWaiting(ctx)).toBe(0);
    expect(contactsIndexed(ctx, "antigo")).toEqual([]);
    expect(contactsIndexed(ctx, "apagado")).toEqual([]);
    expect(contactsIndexed(ctx, "novo")).toEqual([renamed.id]);
    sqliteClient(ctx.db).run("INSERT INTO contacts_fts(contacts_fts, rank) VALUES ('integrity-check', 1)");
  });
});
