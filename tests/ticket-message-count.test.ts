// @engine each
import { one, rowsOf } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { contacts, messages, tickets } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

/** Each ticket's kept count beside the count of its rows. */
async function keptAndCounted(ctx: TestContext) {
  return await rowsOf<{ id: number; kept: number; counted: number }>(
    ctx.db,
    sql`select id, message_count as kept, (select count(*) from messages where messages.ticket_id = tickets.id) as counted from tickets order by id`,
  );
}

describe("a ticket's message count", () => {
  test("GET /messages counts what the chat holds as messages arrive, are answered, noted and notes deleted", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    for (const body of ["oi", "tudo bem?", "preciso de ajuda"]) {
      const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
        token,
        body: { from: "5511977776666", name: "Bia", body },
      });
      expect(res.status).toBe(200);
    }
    const ticket = await one(ctx.db.select().from(tickets));
    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, { token, body: { status: "open" } });
    expect((await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body: "Olá!" } })).status).toBe(
      200,
    );
    const note = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token,
      body: { body: "cliente antigo", isPrivate: true },
    });
    expect(note.status).toBe(200);

    const opened = await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token });
    expect(opened.json).toMatchObject({ count: 5, hasMore: false });
    expect(opened.json.messages).toHaveLength(5);

    const noteId = (opened.json.messages as { id: number; isPrivate: boolean }[]).find((m) => m.isPrivate)!.id;
    expect((await call(ctx.app, "DELETE", `/api/messages/${noteId}`, { token })).status).toBe(200);
    expect((await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token })).json).toMatchObject({ count: 4 });
    for (const row of await keptAndCounted(ctx)) expect(Number(row.kept)).toBe(Number(row.counted));
  });

  test("messages written straight to the database are counted by it: several tickets in one statement, deleted, and gone with their ticket", async () => {
    const ctx = await makeTestApp();
    const contact = await one(ctx.db.insert(contacts).values({ name: "Caio", number: "5511955554444" }).returning());
    const [a, b] = await ctx.db
      .insert(tickets)
      .values([
        { contactId: contact.id, status: "closed" },
        { contactId: contact.id, status: "open" },
      ])
      .returning();
    await ctx.db
      .insert(messages)
      .values(
        [a!, b!, b!, a!, b!].map((t, i) => ({ wid: `w${i}`, ticketId: t.id, contactId: contact.id, body: `m${i}` })),
      );
    expect((await keptAndCounted(ctx)).map((r) => [r.id, Number(r.kept)])).toEqual([
      [a!.id, 2],
      [b!.id, 3],
    ]);

    await ctx.db.delete(messages).where(eq(messages.wid, "w1"));
    await ctx.db.delete(messages).where(eq(messages.ticketId, a!.id));
    expect((await keptAndCounted(ctx)).map((r) => [r.id, Number(r.kept)])).toEqual([
      [a!.id, 0],
      [b!.id, 2],
    ]);

    await ctx.db.delete(tickets).where(eq(tickets.id, b!.id));
    expect((await keptAndCounted(ctx)).map((r) => [r.id, Number(r.kept), Number(r.counted)])).toEqual([[a!.id, 0, 0]]);
  });
});
