// @engine once
import { first, one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messages, queues, tickets, type TicketRow, webhookDeliveries } from "../src/db/tables";
import { webhookEventsRecorded } from "../src/modules/webhooks/observe";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

/** An open ticket of the agent on a paired sandbox connection, whose contact wrote "Oi" (one unread). */
async function setup() {
  const ctx = await makeTestApp();
  const wa = await createSandboxConnection(ctx);
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx, { name: "Bia" });
  await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body: "Oi" });
  const ticket = (await first(ctx.db.select().from(tickets)))!;
  await ctx.db.update(tickets).set({ userId: agent.user.id, status: "open" }).where(eq(tickets.id, ticket.id));
  const number = (await first(ctx.db.select().from(contacts).where(eq(contacts.id, ticket.contactId))))!.number!;
  return { ctx, wa, admin, agent, ticketId: ticket.id, number };
}

const ticketRow = async (ctx: TestContext, id: number): Promise<TicketRow> =>
  (await first(ctx.db.select().from(tickets).where(eq(tickets.id, id))))!;

const note = (ctx: TestContext, ticketId: number, token: string, body: unknown) =>
  call(ctx.app, "POST", `/api/messages/${ticketId}`, { token, body });

describe("private notes", () => {
  test("a note is stored as private with its author, shown in the history and live, and never reaches the contact", async () => {
    const { ctx, wa, agent, ticketId, number } = await setup();
    ctx.hub.clear();
    const res = await note(ctx, ticketId, agent.token, { body: "cliente VIP, oferecer desconto", isPrivate: true });
    expect(res.status).toBe(200);
    expect(res.json.messages).toHaveLength(1);
    expect(res.json.messages[0]).toMatchObject({
      body: "cliente VIP, oferecer desconto",
      isPrivate: true,
      fromMe: true,
      sendState: null,
      senderName: "Bia",
    });
    const live = ctx.hub.named("appMessage").map((e) => e.payload);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((p) => p.action === "create" && p.message.isPrivate === true)).toBe(true);
    await ctx.deps.outbox.idle(wa.id);
    expect(await ctx.sandbox.network.outbox(wa.id, number)).toEqual([]);
    const history = await call(ctx.app, "GET", `/api/messages/${ticketId}`, { token: agent.token });
    expect(history.json.messages.map((m: { body: string; isPrivate: boolean }) => [m.body, m.isPrivate])).toEqual([
      ["Oi", false],
      ["cliente VIP, oferecer desconto", true],
    ]);
  });

  test("a note leaves the ticket's unread count, last message and time as they were", async () => {
    const { ctx, agent, ticketId } = await setup();
    const before = await ticketRow(ctx, ticketId);
    expect(before.unreadMessages).toBe(1);
    ctx.clock.advance(60_000);
    await note(ctx, ticketId, agent.token, { body: "ligar amanhã", isPrivate: true });
    const after = await ticketRow(ctx, ticketId);
    expect(after).toMatchObject({ unreadMessages: 1, lastMessage: "Oi" });
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
  });

  test("a note is reported to no webhook and not counted as outbound traffic, while a sent message is", async () => {
    const { ctx, admin, agent, ticketId } = await setup();
    const hook = await call(ctx.app, "POST", "/api/webhooks", {
      token: admin.token,
      body: { url: "https://example.com/hook", events: ["message.sent"] },
    });
    expect(hook.status).toBe(200);
    await note(ctx, ticketId, agent.token, { body: "só para a equipe", isPrivate: true });
    await webhookEventsRecorded(ctx.deps);
    expect(await ctx.db.select().from(webhookDeliveries)).toHaveLength(0);
    expect(await ctx.deps.metrics.text()).not.toContain('direction="out"');
    await note(ctx, ticketId, agent.token, { body: "Olá Ana" });
    await webhookEventsRecorded(ctx.deps);
    expect(await ctx.db.select().from(webhookDeliveries)).toHaveLength(1);
    expect(await ctx.deps.metrics.text()).toContain('zapdesk_messages_total{direction="out"} 1');
  });

  test("the ticket search finds a ticket by the text of its note", async () => {
    const { ctx, agent, ticketId } = await setup();
    const search = () =>
      call(ctx.app, "GET", "/api/tickets?showAll=true&searchParam=reembolso", { token: agent.token }).then((r) =>
        r.json.tickets.map((t: { id: number }) => t.id),
      );
    expect(await search()).toEqual([]);
    await note(ctx, ticketId, agent.token, { body: "pediu reembolso", isPrivate: true });
    expect(await search()).toEqual([ticketId]);
  });

  test("only who may send on the ticket may add a note: another queue's agent gets 403, a closed ticket refuses", async () => {
    const { ctx, agent, ticketId } = await setup();
    const queue = await one(ctx.db.insert(queues).values({ name: "Vendas", color: "#123456" }).returning());
    await ctx.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId));
    const stranger = await loginAs(ctx, { queueIds: [] });
    expect(await note(ctx, ticketId, stranger.token, { body: "x", isPrivate: true })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    await ctx.db.update(tickets).set({ userId: agent.user.id, status: "closed" }).where(eq(tickets.id, ticketId));
    expect(await note(ctx, ticketId, agent.token, { body: "x", isPrivate: true })).toMatchObject({
      status: 400,
      json: { error: "ERR_TICKET_NOT_OPEN" },
    });
    expect(await note(ctx, ticketId, agent.token, { body: "x", isPrivate: "yes" })).toMatchObject({
      status: 400,
      json: { error: "ERR_INVALID_BODY" },
    });
    expect(await ctx.db.select().from(messages).where(eq(messages.isPrivate, true))).toHaveLength(0);
  });

  test("a message replying to a note goes out without the quote, so the note's text never reaches the contact", async () => {
    const { ctx, wa, agent, ticketId, number } = await setup();
    const id = (await note(ctx, ticketId, agent.token, { body: "segredo interno", isPrivate: true })).json.messages[0]
      .id;
    const res = await note(ctx, ticketId, agent.token, { body: "Tudo certo!", quotedMsg: { id } });
    expect(res.status).toBe(200);
    expect(res.json.messages[0].quotedMsgId).toBeNull();
    expect((await ctx.sandbox.network.outbox(wa.id, number)).map((m) => [m.body, m.quotedId ?? null])).toEqual([
      ["Tudo certo!", null],
    ]);
  });

  test("a note may reply to the contact's message", async () => {
    const { ctx, agent, ticketId } = await setup();
    const inbound = (await first(ctx.db.select().from(messages).where(eq(messages.body, "Oi"))))!;
    const res = await note(ctx, ticketId, agent.token, {
      body: "ver isso",
      isPrivate: true,
      quotedMsg: { id: inbound.id },
    });
    expect(res.json.messages[0]).toMatchObject({ isPrivate: true, quotedMsgId: inbound.id, quotedMsg: { body: "Oi" } });
  });

  test("a note can be written on a ticket without a connection, and attaches none", async () => {
    const { ctx, agent, ticketId } = await setup();
    await ctx.db.update(tickets).set({ whatsappId: null }).where(eq(tickets.id, ticketId));
    const res = await note(ctx, ticketId, agent.token, { body: "sem conexão", isPrivate: true });
    expect(res.json.messages[0]).toMatchObject({ isPrivate: true, whatsappId: null });
    expect((await ticketRow(ctx, ticketId)).whatsappId).toBeNull();
  });

  test("deleting a note removes it without touching the network", async () => {
    const { ctx, agent, ticketId } = await setup();
    const id = (await note(ctx, ticketId, agent.token, { body: "rascunho", isPrivate: true })).json.messages[0].id;
    ctx.channels.deleteForEveryone = () => Promise.reject(new Error("a note must not reach the network"));
    const res = await call(ctx.app, "DELETE", `/api/messages/${id}`, { token: agent.token });
    expect(res).toMatchObject({ status: 200, json: { ok: true } });
    expect(await first(ctx.db.select().from(messages).where(eq(messages.id, id)))).toBeUndefined();
  });
});
