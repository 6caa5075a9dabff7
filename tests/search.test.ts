import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messages, tickets } from "../src/db/schema";
import { bodyMatchQuery } from "../src/modules/messages/search";
import { ticketFilter, ticketPageQuery } from "../src/modules/tickets/list";
import { call, loginAs, makeTestApp, type TestContext } from "./helpers";

let seq = 0;
function ticketWith(ctx: TestContext, ...bodies: string[]) {
  const contact = ctx.db
    .insert(contacts)
    .values({ name: `Contact ${++seq}`, number: `55119770${String(seq).padStart(5, "0")}` })
    .returning()
    .get();
  const ticket = ctx.db.insert(tickets).values({ status: "pending", contactId: contact.id }).returning().get();
  for (const body of bodies)
    ctx.db
      .insert(messages)
      .values({ wid: `w${++seq}`, ticketId: ticket.id, body })
      .run();
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
  test("L11: searching message bodies reads the full-text index instead of scanning the messages table", async () => {
    const ctx = await makeTestApp();
    const { user } = await loginAs(ctx, { profile: "admin" });
    const auth = { ...user, queueIds: [], tokenVersion: 0 };
    const query = ticketPageQuery(
      ctx.db,
      ticketFilter(ctx.db, auth, { searchParam: "pedido", showAll: true }, "UTC"),
    ).toSQL();
    const plan = ctx.db.$client
      .query(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...(query.params as never[]))
      .map((row) => (row as { detail: string }).detail);
    expect(plan.some((d) => d.includes("messages_fts"))).toBe(true);
    expect(plan.filter((d) => /^SCAN messages\b/.test(d))).toEqual([]);
  });

  test("finds words by their beginning, ignoring case and accents, in Portuguese and Spanish", async () => {
    const ctx = await makeTestApp();
    const pt = ticketWith(ctx, "Olá, João! Preciso de ajuda com o pedido #12345");
    const es = ticketWith(ctx, "Señor, ¿dónde está mi paquete?");
    ticketWith(ctx, "nothing to see here");
    const search = await searcher(ctx);
    expect(await search("joao")).toEqual([pt.id]);
    expect(await search("OLA PED")).toEqual([pt.id]);
    expect(await search("1234")).toEqual([pt.id]);
    expect(await search("senor donde")).toEqual([es.id]);
    expect(await search("pedidos")).toEqual([]);
  });

  test("an edited message is found by its new text only; a deleted one is no longer found", async () => {
    const ctx = await makeTestApp();
    const edited = ticketWith(ctx, "entrega amanhã");
    const deleted = ticketWith(ctx, "cancelamento urgente");
    const search = await searcher(ctx);
    ctx.db.update(messages).set({ body: "entrega segunda-feira" }).where(eq(messages.ticketId, edited.id)).run();
    ctx.db.update(messages).set({ isDeleted: true }).where(eq(messages.ticketId, deleted.id)).run();
    expect(await search("amanha")).toEqual([]);
    expect(await search("segunda")).toEqual([edited.id]);
    expect(await search("cancelamento")).toEqual([]);
    ctx.db.delete(messages).where(eq(messages.ticketId, edited.id)).run();
    expect(await search("segunda")).toEqual([]);
  });

  test("quotes and operators typed by the user are taken as plain words", async () => {
    const ctx = await makeTestApp();
    const t = ticketWith(ctx, 'ele disse "NEAR" OR AND pedido');
    const search = await searcher(ctx);
    expect(await search('"near" OR')).toEqual([t.id]);
    expect(await search("pedido*")).toEqual([t.id]);
    expect(bodyMatchQuery("a * ( )")).toBeNull();
    expect(bodyMatchQuery('Olá "xy z"')).toBe('"olá"* "xy"*');
  });
});
