// @engine once
import { first, one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { messages, queues, tickets } from "../src/db/tables";
import { WAITING_BODY } from "../src/channels/baileys/upsert";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const FROM = "5511988887777";

async function chatWithOneMessage() {
  const ctx = await makeTestApp();
  const conn = await createSandboxConnection(ctx);
  await ctx.sandbox.inbound(conn.id, { from: FROM, body: "Quero o pedido 12", id: "IN1" });
  const ticket = (await first(ctx.db.select().from(tickets)))!;
  ctx.hub.clear();
  return { ctx, conn, ticket, sink: ctx.channels.driverSink };
}

describe("edits, reactions and undecryptable messages", () => {
  test("an edit replaces the stored text, marks it edited and updates the chat live", async () => {
    const { ctx, conn, ticket, sink } = await chatWithOneMessage();
    await sink.onEdit(conn.id, { id: "IN1", body: "Quero o pedido 13", at: ctx.clock.now() });
    const row = (await first(ctx.db.select().from(messages).where(eq(messages.wid, "IN1"))))!;
    expect(row).toMatchObject({ body: "Quero o pedido 13", isEdited: true });
    const [update] = ctx.hub.to(`ticket:${ticket.id}`, "appMessage");
    expect(update?.payload).toMatchObject({
      action: "update",
      message: { id: row.id, body: "Quero o pedido 13", isEdited: true },
    });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const search = await call(ctx.app, "GET", "/api/tickets?showAll=true&searchParam=13", { token });
    expect(search.json.tickets.map((t: { id: number }) => t.id)).toEqual([ticket.id]);
  });

  test("a reaction shows on the bubble it reacts to, never as unread, and does not reopen a closed ticket", async () => {
    const { ctx, conn, ticket, sink } = await chatWithOneMessage();
    await ctx.db.update(tickets).set({ status: "closed", unreadMessages: 0 }).where(eq(tickets.id, ticket.id));
    await sink.onReaction(conn.id, { targetId: "IN1", emoji: "👍", reactor: FROM, at: ctx.clock.now() });
    await sink.onReaction(conn.id, { targetId: "IN1", emoji: "❤️", reactor: "me", at: ctx.clock.now() + 1 });
    const after = await ctx.db.select().from(tickets);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: "closed", unreadMessages: 0, lastMessage: "Quero o pedido 12" });
    expect(await ctx.db.select().from(messages)).toHaveLength(1);
    const updates = ctx.hub.to(`ticket:${ticket.id}`, "appMessage").map((u) => u.payload);
    expect(updates.at(-1)).toMatchObject({
      action: "update",
      message: {
        reactions: [
          { emoji: "👍", reactor: FROM },
          { emoji: "❤️", reactor: "me" },
        ],
      },
    });
    await sink.onReaction(conn.id, { targetId: "IN1", emoji: "", reactor: FROM, at: ctx.clock.now() + 2 });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const history = await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token });
    expect(history.json.messages[0].reactions).toEqual([{ emoji: "❤️", reactor: "me" }]);
  });

  test("a reaction to an unknown message is logged and dropped", async () => {
    const { ctx, conn, sink } = await chatWithOneMessage();
    await sink.onReaction(conn.id, { targetId: "NOPE", emoji: "👍", reactor: FROM, at: ctx.clock.now() });
    expect(ctx.hub.sent).toEqual([]);
  });

  test("an undecryptable message waits without running the bot, and its resend replaces it and runs the menu", async () => {
    const ctx = await makeTestApp();
    const sales = await one(ctx.db.insert(queues).values({ name: "Vendas", color: "#aa0000" }).returning());
    const support = await one(ctx.db.insert(queues).values({ name: "Suporte", color: "#00aa00" }).returning());
    const conn = await createSandboxConnection(ctx, { greetingMessage: "Escolha:", queueIds: [sales.id, support.id] });
    const sink = ctx.channels.driverSink;
    const base = { chatId: FROM, isGroup: false, fromMe: false, at: ctx.clock.now() };
    await sink.onMessage(conn.id, { ...base, id: "W1", kind: "waiting", body: WAITING_BODY });
    expect(await ctx.sandbox.network.outbox(conn.id, FROM)).toEqual([]);
    const waiting = (await first(ctx.db.select().from(messages).where(eq(messages.wid, "W1"))))!;
    expect(waiting).toMatchObject({ mediaType: "waiting", body: WAITING_BODY });
    await sink.onMessage(conn.id, { ...base, id: "W1", kind: "chat", body: "Oi" });
    const replaced = await ctx.db.select().from(messages).where(eq(messages.wid, "W1"));
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).toMatchObject({ id: waiting.id, mediaType: "chat", body: "Oi" });
    expect((await ctx.sandbox.network.outbox(conn.id, FROM)).map((m) => m.body)).toEqual([
      "\u200eEscolha:\n\n*1* - Vendas\n*2* - Suporte",
    ]);
  });
});
