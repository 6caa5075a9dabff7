// @engine each
import { first, one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { messages, queues, tickets } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

/** Two contacts writing about an order; the first one's ticket is the agent's, open, with a private note. */
async function setup() {
  const ctx = await makeTestApp();
  const wa = await createSandboxConnection(ctx);
  const agent = await loginAs(ctx, { name: "Bia" });
  await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body: "Meu pedido atrasou" });
  await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body: "Bom dia" });
  const ticket = (await first(ctx.db.select().from(tickets)))!;
  await ctx.db.update(tickets).set({ userId: agent.user.id, status: "open" }).where(eq(tickets.id, ticket.id));
  await ctx.sandbox.inbound(wa.id, { from: "5511977776666", name: "Caio", body: "Outro pedido aqui" });
  const note = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
    token: agent.token,
    body: { body: "Pedido reenviado hoje", isPrivate: true },
  });
  expect(note.status).toBe(200);
  return { ctx, agent, ticketId: ticket.id };
}

const bodyOf = async (ctx: Awaited<ReturnType<typeof setup>>["ctx"], id: number) =>
  (await first(ctx.db.select().from(messages).where(eq(messages.id, id))))!.body;

describe("search inside a conversation", () => {
  test("finds only this conversation's messages, private notes included, oldest first with the total, and leaves the ticket unread", async () => {
    const { ctx, agent, ticketId } = await setup();
    const unread = async () =>
      (await first(ctx.db.select().from(tickets).where(eq(tickets.id, ticketId))))!.unreadMessages;
    const before = await unread();
    expect(before).toBeGreaterThan(0);
    const res = await call(ctx.app, "GET", `/api/messages/${ticketId}/search?q=pedido`, { token: agent.token });
    expect(await unread()).toBe(before);
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(2);
    expect(await Promise.all(res.json.ids.map(async (id: number) => await bodyOf(ctx, id)))).toEqual([
      "Meu pedido atrasou",
      "Pedido reenviado hoje",
    ]);
  });

  test("a search with no word to look up finds nothing", async () => {
    const { ctx, agent, ticketId } = await setup();
    const res = await call(ctx.app, "GET", `/api/messages/${ticketId}/search?q=%20!`, { token: agent.token });
    expect(res.json).toEqual({ ids: [], count: 0 });
  });

  test("an agent who may not see the ticket is refused", async () => {
    const { ctx, ticketId } = await setup();
    const queue = await one(ctx.db.insert(queues).values({ name: "Vendas", color: "#123456" }).returning());
    await ctx.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId));
    const stranger = await loginAs(ctx, { queueIds: [] });
    const res = await call(ctx.app, "GET", `/api/messages/${ticketId}/search?q=pedido`, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: "ERR_NO_PERMISSION" });
  });
});
