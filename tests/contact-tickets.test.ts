// @engine each
import { describe, expect, test } from "bun:test";
import { one } from "../src/db/client";
import { contacts, messages, tickets } from "../src/db/tables";
import { call, createSandboxConnection, makeTestApp, salesAndSupport } from "./helpers";

async function setup() {
  const ctx = await makeTestApp();
  const cast = await salesAndSupport(ctx);
  const conn = await createSandboxConnection(ctx, { name: "Shop phone", isDefault: true });
  const rui = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
  const other = await one(ctx.db.insert(contacts).values({ name: "Eva", number: "5511955555555" }).returning());
  /** A ticket of `contactId`, last active `minutesAgo`. */
  const ticket = async (contactId: number, values: Partial<typeof tickets.$inferInsert>, minutesAgo: number) =>
    await one(
      ctx.db
        .insert(tickets)
        .values({
          contactId,
          whatsappId: conn.id,
          status: "closed",
          updatedAt: new Date(ctx.clock.now() - minutesAgo * 60_000),
          ...values,
        })
        .returning(),
    );
  return { ctx, ...cast, conn, rui, other, ticket };
}

const contactTickets = (ctx: Awaited<ReturnType<typeof setup>>["ctx"], token: string, contactId: number, query = "") =>
  call(ctx.app, "GET", `/api/contacts/${contactId}/tickets${query}`, { token });

describe("GET /api/contacts/:id/tickets", () => {
  test("lists the contact's tickets most recently active first, with status, queue, agent, rating and private-note count", async () => {
    const { ctx, admin, agent, sales, rui, other, ticket } = await setup();
    const rated = new Date(ctx.clock.now() - 80 * 60_000);
    const old = await ticket(
      rui.id,
      { queueId: sales.id, userId: agent.user.id, csatRating: 4, csatComment: "Quick", csatAnsweredAt: rated },
      90,
    );
    const open = await ticket(rui.id, { status: "open", queueId: sales.id, userId: agent.user.id }, 5);
    await ticket(other.id, { status: "open" }, 1);
    await ctx.db.insert(messages).values([
      { wid: "n1", ticketId: old.id, contactId: rui.id, body: "VIP", isPrivate: true, fromMe: true },
      { wid: "n2", ticketId: old.id, contactId: rui.id, body: "call back", isPrivate: true, fromMe: true },
      { wid: "m1", ticketId: old.id, contactId: rui.id, body: "oi" },
    ]);
    const res = await contactTickets(ctx, admin.token, rui.id);
    expect(res.status).toBe(200);
    const body = res.json as { tickets: Record<string, unknown>[]; count: number; hasMore: boolean };
    expect(body.count).toBe(2);
    expect(body.hasMore).toBe(false);
    expect(body.tickets.map((t) => [t.id, t.status, t.notes])).toEqual([
      [open.id, "open", 0],
      [old.id, "closed", 2],
    ]);
    expect(body.tickets[1]).toMatchObject({
      queue: { id: sales.id, name: "Sales" },
      user: { id: agent.user.id, name: "Ana" },
      csat: { rating: 4, comment: "Quick", answeredAt: rated.toISOString() },
      updatedAt: new Date(ctx.clock.now() - 90 * 60_000).toISOString(),
    });
  });

  test("an agent sees only the tickets the ticket list shows them: their queues', queue-less ones and their own", async () => {
    const { ctx, agent, admin, sales, support, rui, ticket } = await setup();
    const inSales = await ticket(rui.id, { queueId: sales.id }, 4);
    await ticket(rui.id, { queueId: support.id, userId: admin.user.id }, 3);
    const mineInSupport = await ticket(rui.id, { queueId: support.id, userId: agent.user.id }, 2);
    const noQueue = await ticket(rui.id, {}, 1);
    const res = await contactTickets(ctx, agent.token, rui.id);
    expect(res.status).toBe(200);
    const body = res.json as { tickets: { id: number }[]; count: number };
    expect(body.tickets.map((t) => t.id)).toEqual([noQueue.id, mineInSupport.id, inSales.id]);
    expect(body.count).toBe(3);
  });

  test("pages by 20 and answers 404 for an unknown contact", async () => {
    const { ctx, admin, rui, ticket } = await setup();
    for (let i = 0; i < 21; i++) await ticket(rui.id, {}, 100 - i);
    const first = (await contactTickets(ctx, admin.token, rui.id)).json as { tickets: unknown[]; hasMore: boolean };
    expect([first.tickets.length, first.hasMore]).toEqual([20, true]);
    const second = await contactTickets(ctx, admin.token, rui.id, "?pageNumber=2");
    expect(second.json).toMatchObject({ count: 21, hasMore: false });
    expect((second.json as { tickets: unknown[] }).tickets).toHaveLength(1);
    const missing = await contactTickets(ctx, admin.token, 999_999);
    expect(missing.status).toBe(404);
    expect((missing.json as { error: string }).error).toBe("ERR_NO_CONTACT_FOUND");
  });
});
