// @engine each
import { one, sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messages, queues, tickets } from "../src/db/tables";
import { bodyMatchQuery } from "../src/modules/messages/search";
import { ticketFilter, ticketPageQuery } from "../src/modules/tickets/list";
import { testsOnPostgres } from "./test-engine";
import { call, loginAs, makeTestApp, sqliteOnly, type TestContext } from "./helpers";

let seq = 0;
async function ticketWith(ctx: TestContext, ...bodies: string[]) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Contact ${++seq}`, number: `55119770${String(seq).padStart(5, "0")}` })
      .returning(),
  );
  const ticket = await one(ctx.db.insert(tickets).values({ status: "pending", contactId: contact.id }).returning());
  for (const body of bodies) await ctx.db.insert(messages).values({ wid: `w${++seq}`, ticketId: ticket.id, body });
  return ticket;
}

async function searcher(ctx: TestContext) {
  const { token } = await loginAs(ctx, { profile: "admin" });
  return async (q: string) => {
    const res = await call(ctx.app, "GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent(q)}`, { token });
    expect(res.status).toBe(200);
    return res.json.tickets.map((t: { id: number }) => t.id).sort((a: number, b: number) => a - b);
  };
}

describe("message search", () => {
  sqliteOnly(
    "L11: searching message bodies reads the full-text index instead of scanning the messages table",
    async () => {
      const ctx = await makeTestApp();
      const { user } = await loginAs(ctx, { profile: "admin" });
      const auth = { ...user, queueIds: [], tokenVersion: 0 };
      const query = ticketPageQuery(
        ctx.db,
        await ticketFilter(ctx.db, auth, { searchParam: "pedido", showAll: true }, "UTC"),
      ).toSQL();
      const plan = sqliteClient(ctx.db)
        .query(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...(query.params as never[]))
        .map((row) => (row as { detail: string }).detail);
      expect(plan.some((d) => d.includes("messages_fts"))).toBe(true);
      expect(plan.filter((d) => /^SCAN messages\b/.test(d))).toEqual([]);
    },
  );

  test("finds words by their beginning, ignoring case and accents, in Portuguese and Spanish", async () => {
    const ctx = await makeTestApp();
    const pt = await ticketWith(ctx, "Olá, João! Preciso de ajuda com o pedido #12345");
    const es = await ticketWith(ctx, "Señor, ¿dónde está mi paquete?");
    await ticketWith(ctx, "nothing to see here");
    const search = await searcher(ctx);
    expect(await search("joao")).toEqual([pt.id]);
    expect(await search("OLA PED")).toEqual([pt.id]);
    expect(await search("1234")).toEqual([pt.id]);
    expect(await search("senor donde")).toEqual([es.id]);
    expect(await search("pedidos")).toEqual([]);
  });

  test("an edited message is found by its new text only; a deleted one is no longer found", async () => {
    const ctx = await makeTestApp();
    const edited = await ticketWith(ctx, "entrega amanhã");
    const deleted = await ticketWith(ctx, "cancelamento urgente");
    const search = await searcher(ctx);
    await ctx.db.update(messages).set({ body: "entrega segunda-feira" }).where(eq(messages.ticketId, edited.id));
    await ctx.db.update(messages).set({ isDeleted: true }).where(eq(messages.ticketId, deleted.id));
    expect(await search("amanha")).toEqual([]);
    expect(await search("segunda")).toEqual([edited.id]);
    expect(await search("cancelamento")).toEqual([]);
    await ctx.db.delete(messages).where(eq(messages.ticketId, edited.id));
    expect(await search("segunda")).toEqual([]);
  });

  test("quotes and operators typed by the user are taken as plain words", async () => {
    const ctx = await makeTestApp();
    const t = await ticketWith(ctx, 'ele disse "NEAR" OR AND pedido');
    const search = await searcher(ctx);
    expect(await search('"near" OR')).toEqual([t.id]);
    expect(await search("pedido*")).toEqual([t.id]);
    expect(bodyMatchQuery("a * ( )")).toBeNull();
    expect(bodyMatchQuery('Olá "xy z"')).toBe(testsOnPostgres ? "olá:* & xy:*" : '"olá"* "xy"*');
  });
});

/** Messages of `ticketId` in multi-row inserts (a search's windows are counted in tens of thousands). */
async function bulkMessages(ctx: TestContext, ticketId: number, bodies: string[]) {
  for (let i = 0; i < bodies.length; i += 2000)
    await ctx.db
      .insert(messages)
      .values(bodies.slice(i, i + 2000).map((body) => ({ wid: `b${++seq}`, ticketId, body })));
}

describe("message search on PostgreSQL, newest matches first", () => {
  test.skipIf(!testsOnPostgres)(
    "a common word reaches back past the newest messages, a rare one is found however old, deleted ones never",
    async () => {
      const ctx = await makeTestApp();
      const rare = await ticketWith(ctx, "pedido raro de ontem");
      const older = await ticketWith(ctx);
      await bulkMessages(
        ctx,
        older.id,
        Array.from({ length: 400 }, (_, i) => `pedido comum ${i}`),
      );
      // The newest 20,000 messages: one in a hundred has the common word, the rest neither word.
      const recent = await ticketWith(ctx);
      await bulkMessages(
        ctx,
        recent.id,
        Array.from({ length: 20_000 }, (_, i) => (i % 100 === 0 ? "comum agora" : "bom dia")),
      );
      const search = await searcher(ctx);
      expect(await search("comum")).toEqual([older.id, recent.id]);
      expect(await search("raro")).toEqual([rare.id]);
      expect(await search("pedido")).toEqual([rare.id, older.id]);
      await ctx.db.update(messages).set({ isDeleted: true }).where(eq(messages.ticketId, rare.id));
      expect(await search("raro")).toEqual([]);
    },
  );
});

describe("ticket search over names, numbers and every kind of message", () => {
  async function ticketOf(ctx: TestContext, name: string, number: string, values: { queueId?: number } = {}) {
    const contact = await one(ctx.db.insert(contacts).values({ name, number }).returning());
    return await one(
      ctx.db
        .insert(tickets)
        .values({ status: "pending", contactId: contact.id, ...values })
        .returning(),
    );
  }

  test("names match without accents either way, by any part, and numbers by any run of digits", async () => {
    const ctx = await makeTestApp();
    const joao = await ticketOf(ctx, "João Conceição", "5511912340001");
    const munoz = await ticketOf(ctx, "Andrés Muñoz", "5491155550002");
    const plain = await ticketOf(ctx, "Joao Conceicao", "5511977770003");
    const search = await searcher(ctx);
    expect(await search("joao")).toEqual([joao.id, plain.id]);
    expect(await search("JOÃO")).toEqual([joao.id, plain.id]);
    expect(await search("conceição")).toEqual([joao.id, plain.id]);
    expect(await search("munoz")).toEqual([munoz.id]);
    expect(await search("ndrés mu")).toEqual([munoz.id]);
    expect(await search("1234")).toEqual([joao.id]);
    expect(await search("55500")).toEqual([munoz.id]);
    expect(await search("mariana")).toEqual([]);
  });

  test("two characters find message words; names and numbers need three", async () => {
    const ctx = await makeTestApp();
    const byBody = await ticketWith(ctx, "pedido 13 chegou");
    await ticketOf(ctx, "Ana 13", "5511913130041");
    const search = await searcher(ctx);
    expect(await search("13")).toEqual([byBody.id]);
    expect(await search("ana")).not.toEqual([]);
  });

  test("a renamed contact is found by the new name only; a deleted one not at all", async () => {
    const ctx = await makeTestApp();
    const t = await ticketOf(ctx, "Conceição Brandão", "5511912340011");
    const other = await ticketOf(ctx, "Fátima Simões", "5511912340012");
    const search = await searcher(ctx);
    await ctx.db.update(contacts).set({ name: "Conceição Falcão" }).where(eq(contacts.id, t.contactId));
    expect(await search("brandao")).toEqual([]);
    expect(await search("falcao")).toEqual([t.id]);
    await ctx.db.delete(contacts).where(eq(contacts.id, other.contactId));
    expect(await search("simoes")).toEqual([]);
  });

  test("body words match without accents either way, private notes included", async () => {
    const ctx = await makeTestApp();
    const accented = await ticketWith(ctx, "Falei com a Conceição sobre a devolução");
    const bare = await ticketWith(ctx, "devolucao aprovada para Conceicao");
    const note = await ticketWith(ctx);
    await ctx.db
      .insert(messages)
      .values({ wid: `n${++seq}`, ticketId: note.id, body: "Nota: cliente pediu reembolso", isPrivate: true });
    const search = await searcher(ctx);
    expect(await search("conceicao")).toEqual([accented.id, bare.id]);
    expect(await search("devolução")).toEqual([accented.id, bare.id]);
    expect(await search("reembol")).toEqual([note.id]);
  });

  test("an agent finds only tickets of their queues, queue-less ones and their own", async () => {
    const ctx = await makeTestApp();
    const [mine, theirs] = [
      await one(ctx.db.insert(queues).values({ name: "Vendas", color: "#Vendas" }).returning()),
      await one(ctx.db.insert(queues).values({ name: "Suporte", color: "#Suporte" }).returning()),
    ];
    const agent = await loginAs(ctx, { queueIds: [mine!.id] });
    const inMine = await ticketOf(ctx, "Inês Gonçalves", "5511912340021", { queueId: mine!.id });
    const inTheirs = await ticketOf(ctx, "Inês Araújo", "5511912340022", { queueId: theirs!.id });
    const inNone = await ticketOf(ctx, "Inês Peña", "5511912340023");
    for (const t of [inMine, inTheirs, inNone])
      await ctx.db.insert(messages).values({ wid: `v${t.id}`, ticketId: t.id, body: "garantía vencida" });
    const found = async (q: string) => {
      const res = await call(ctx.app, "GET", `/api/tickets?searchParam=${encodeURIComponent(q)}`, {
        token: agent.token,
      });
      return res.json.tickets.map((t: { id: number }) => t.id).sort((a: number, b: number) => a - b);
    };
    expect(await found("ines")).toEqual([inMine.id, inNone.id]);
    expect(await found("garantia")).toEqual([inMine.id, inNone.id]);
  });

  test("whatever the user types is plain text: quotes, stars, parentheses, colons and blanks never fail", async () => {
    const ctx = await makeTestApp();
    const t = await ticketOf(ctx, 'Ana "Nina" (loja) name:x', "5511912340031");
    const search = await searcher(ctx);
    for (const q of ['"', '""', "*", "(", ")", "name:", "name:x", "NEAR(a b)", "a OR b", "-", "^", "   ", "'", "\\"])
      await search(q);
    expect(await search('"nina"')).toEqual([t.id]);
    expect(await search("(loja)")).toEqual([t.id]);
    expect(await search("name:x")).toEqual([t.id]);
  });
});
