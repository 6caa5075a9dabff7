// @engine each
import { one, first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { chatbots, contacts, messages, queues, settings, tickets, users, connections } from "../src/db/tables";
import { createIngest } from "../src/modules/inbound/ingest";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const LRM = "\u200e";

async function setup(opts: { queues?: number; greeting?: string } = {}) {
  const ctx = await makeTestApp();
  const { token } = await loginAs(ctx, { profile: "admin" });
  const qs: (typeof queues.$inferSelect)[] = [];
  for (let i = 0; i < (opts.queues ?? 2); i++)
    qs.push(
      await one(
        ctx.db
          .insert(queues)
          .values({ name: `Queue ${i + 1}`, color: `#00000${i}`, greetingMessage: `Welcome to queue ${i + 1}` })
          .returning(),
      ),
    );
  const conn = await createSandboxConnection(ctx, {
    greetingMessage: opts.greeting ?? "Hello {{name}}, choose:",
    queueIds: qs.map((q) => q.id),
  });
  return { ctx, token, qs, conn };
}

const inbound = (ctx: TestContext, token: string, whatsappId: number, body: Record<string, unknown>) =>
  call(ctx.app, "POST", `/api/sandbox/${whatsappId}/inbound`, { token, body });
const outbox = async (ctx: TestContext, token: string, whatsappId: number, to: string) =>
  (await call(ctx.app, "GET", `/api/sandbox/${whatsappId}/outbox?to=${to}`, { token })).json as {
    body: string;
    ack: number;
  }[];
/** Oldest first: PostgreSQL hands rows back in no fixed order once some were updated. */
const ticketsOf = async (ctx: TestContext) => await ctx.db.select().from(tickets).orderBy(asc(tickets.id));

describe("inbound pipeline", () => {
  test("a new number writing gets one pending ticket with unread 1 and the queue menu", async () => {
    const { ctx, token, conn } = await setup();
    const res = await inbound(ctx, token, conn.id, { from: "5511988887777", name: "Ana", body: "Oi" });
    expect(res.status).toBe(200);
    expect(typeof res.json.id).toBe("string");
    const all = await ticketsOf(ctx);
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBe("pending");
    expect(all[0]!.unreadMessages).toBe(1);
    const out = await outbox(ctx, token, conn.id, "5511988887777");
    expect(out).toHaveLength(1);
    expect(out[0].body).toBe(`${LRM}Hello Ana, choose:\n\n*1* - Queue 1\n*2* - Queue 2`);
    expect(
      ctx.hub.named("ticket").some((e) => e.payload.action === "update" && e.payload.ticket.id === all[0]!.id),
    ).toBe(true);
  });

  test("replying with an option number moves the ticket to that queue and sends its greeting (not the transfer message); an invalid answer gets the menu again, at most once a minute", async () => {
    const { ctx, token, qs, conn } = await setup();
    await ctx.db
      .update(connections)
      .set({ transferTicketMessage: "You were transferred" })
      .where(eq(connections.id, conn.id));
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "banana" });
    expect(await outbox(ctx, token, conn.id, "5511988887777")).toHaveLength(1);
    ctx.clock.advance(59_000);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "banana" });
    expect(await outbox(ctx, token, conn.id, "5511988887777")).toHaveLength(1);
    ctx.clock.advance(1000);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "banana" });
    const again = await outbox(ctx, token, conn.id, "5511988887777");
    expect(again.map((m) => m.body)).toEqual([
      `${LRM}Hello Ana, choose:\n\n*1* - Queue 1\n*2* - Queue 2`.replace("Ana", "5511988887777"),
      `${LRM}Opção inválida. Responda com o número de uma das opções:\n\nHello 5511988887777, choose:\n\n*1* - Queue 1\n*2* - Queue 2`,
    ]);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "2" });
    const [ticket] = await ticketsOf(ctx);
    expect(ticket!.queueId).toBe(qs[1]!.id);
    expect(ticket!.unreadMessages).toBe(5);
    const out = await outbox(ctx, token, conn.id, "5511988887777");
    expect(out.at(-1)?.body).toBe(`${LRM}Welcome to queue 2`);
    expect(out.map((m: { body: string }) => m.body).join()).not.toContain("transferred");
  });

  test("a single queue is chosen automatically with its greeting", async () => {
    const { ctx, token, qs, conn } = await setup({ queues: 1 });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    expect((await ticketsOf(ctx))[0]!.queueId).toBe(qs[0]!.id);
    expect((await outbox(ctx, token, conn.id, "5511988887777")).map((m) => m.body)).toEqual([
      `${LRM}Welcome to queue 1`,
    ]);
  });

  test("without queues the greeting goes once per ticket", async () => {
    const { ctx, token, conn } = await setup({ queues: 0, greeting: "Hi there" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi again" });
    expect((await outbox(ctx, token, conn.id, "5511988887777")).map((m) => m.body)).toEqual([`${LRM}Hi there`]);
  });

  test("the same message id delivered twice is stored once", async () => {
    const { ctx, token, conn } = await setup();
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi", id: "DUP1" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi", id: "DUP1" });
    expect(await ctx.db.select().from(messages).where(eq(messages.wid, "DUP1"))).toHaveLength(1);
    expect((await ticketsOf(ctx))[0]!.unreadMessages).toBe(1);
  });

  test("a burst of messages from a new number creates one ticket", async () => {
    const { ctx, token, conn } = await setup();
    await Promise.all([1, 2, 3, 4].map((i) => inbound(ctx, token, conn.id, { from: "5511977776666", body: `m${i}` })));
    expect(await ticketsOf(ctx)).toHaveLength(1);
    expect((await ticketsOf(ctx))[0]!.unreadMessages).toBe(4);
  });

  test("acks of a sent message reach 3, then 4 once the contact reads", async () => {
    const { ctx, token, conn } = await setup();
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    await ctx.sandbox.network.settle();
    const sent = (await firstRow(ctx.db.select().from(messages).where(eq(messages.fromMe, true))))!;
    expect(sent.ack).toBe(3);
    const read = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/read`, { token, body: { to: "5511988887777" } });
    expect(read.status).toBe(200);
    expect((await firstRow(ctx.db.select().from(messages).where(eq(messages.id, sent.id))))!.ack).toBe(4);
    expect((await outbox(ctx, token, conn.id, "5511988887777"))[0]?.ack).toBe(4);
  });

  test("contact name comes from the push name only when new", async () => {
    const { ctx, token, conn } = await setup();
    await inbound(ctx, token, conn.id, { from: "5511988887777", name: "Ana", body: "Oi" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", name: "Someone else", body: "Oi" });
    const row = (await firstRow(ctx.db.select().from(contacts).where(eq(contacts.number, "5511988887777"))))!;
    expect(row.name).toBe("Ana");
    expect(ctx.hub.to("all", "contact").map((e) => e.payload.action)).toEqual(["create"]);
  });

  test("a closed ticket is reopened within timeCreateNewTicket, and a new one is created after it", async () => {
    const { ctx, token, conn } = await setup({ queues: 0 });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    const first = (await ticketsOf(ctx))[0]!;
    await ctx.db
      .update(tickets)
      .set({ status: "closed", updatedAt: new Date(ctx.clock.now()) })
      .where(eq(tickets.id, first.id));
    await ctx.db.update(settings).set({ value: "60" }).where(eq(settings.key, "timeCreateNewTicket"));
    ctx.clock.advance(30_000);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "back" });
    expect(await ticketsOf(ctx)).toHaveLength(1);
    expect((await ticketsOf(ctx))[0]!.status).toBe("pending");
    await ctx.db
      .update(tickets)
      .set({ status: "closed", updatedAt: new Date(ctx.clock.now()) })
      .where(eq(tickets.id, first.id));
    ctx.clock.advance(61_000);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "later" });
    expect(await ticketsOf(ctx)).toHaveLength(2);
  });

  test("group messages are ignored by default and stored with the sender name when enabled", async () => {
    const { ctx, token, conn } = await setup();
    await inbound(ctx, token, conn.id, {
      from: "5511988887777",
      name: "Bia",
      body: "hi all",
      groupId: "120363000000-1",
      groupName: "Team",
    });
    expect(await ticketsOf(ctx)).toHaveLength(0);
    await ctx.db.update(settings).set({ value: "disabled" }).where(eq(settings.key, "CheckMsgIsGroup"));
    await inbound(ctx, token, conn.id, {
      from: "5511988887777",
      name: "Bia",
      body: "hi all",
      groupId: "120363000000-1",
      groupName: "Team",
    });
    const [ticket] = await ticketsOf(ctx);
    expect(ticket!.isGroup).toBe(true);
    const msg = (await firstRow(ctx.db.select().from(messages)))!;
    expect(msg.senderName).toBe("Bia");
    expect(await outbox(ctx, token, conn.id, "120363000000-1")).toHaveLength(0);
  });

  test("outside work hours the out-of-work message goes at most once per 5 minutes and no menu is sent", async () => {
    const { ctx, token, conn } = await setup();
    const closedAllWeek = {
      monday: false,
      tuesday: false,
      wednesday: false,
      thursday: false,
      friday: false,
      saturday: false,
      sunday: false,
    };
    await ctx.db
      .update(connections)
      .set({ defineWorkHours: true, outOfWorkMessage: "Closed now", ...closedAllWeek })
      .where(eq(connections.id, conn.id));
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi" });
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "Oi?" });
    expect((await outbox(ctx, token, conn.id, "5511988887777")).map((m) => m.body)).toEqual([`${LRM}Closed now`]);
    ctx.clock.advance(5 * 60 * 1000);
    await inbound(ctx, token, conn.id, { from: "5511988887777", body: "hello?" });
    expect(await outbox(ctx, token, conn.id, "5511988887777")).toHaveLength(2);
  });

  test("the chatbot walks options, goes back with #, stops after 3 invalid answers, and agent options assign the user", async () => {
    const { ctx, token, qs, conn } = await setup();
    const agent = (await firstRow(ctx.db.select().from(users)))!;
    const sales = await one(
      ctx.db.insert(chatbots).values({ name: "Sales", greetingMessage: "Sales menu", queueId: qs[0]!.id }).returning(),
    );
    await ctx.db.insert(chatbots).values({
      name: "Talk to Ana",
      greetingMessage: "Connecting you",
      isAgent: true,
      userId: agent.id,
      parentId: sales.id,
    });
    await ctx.db.insert(chatbots).values({ name: "Prices", greetingMessage: "Our prices", parentId: sales.id });
    const from = "5511988887777";
    await inbound(ctx, token, conn.id, { from, body: "Oi" });
    await inbound(ctx, token, conn.id, { from, body: "1" });
    let out = await outbox(ctx, token, conn.id, from);
    expect(out.at(-1)?.body).toBe(`${LRM}Welcome to queue 1\n\n*1* - Sales\n\n*#* Voltar para o menu principal`);
    await inbound(ctx, token, conn.id, { from, body: "1" });
    out = await outbox(ctx, token, conn.id, from);
    expect(out.at(-1)?.body).toBe(
      `${LRM}Sales menu\n\n*1* - Talk to Ana\n*2* - Prices\n\n*#* Voltar para o menu principal`,
    );
    await inbound(ctx, token, conn.id, { from, body: "#" });
    expect((await ticketsOf(ctx))[0]!.queueId).toBeNull();
    out = await outbox(ctx, token, conn.id, from);
    expect(out.at(-1)?.body).toContain("*2* - Queue 2");
    await inbound(ctx, token, conn.id, { from, body: "1" });
    await inbound(ctx, token, conn.id, { from, body: "1" });
    await inbound(ctx, token, conn.id, { from, body: "1" });
    const [ticket] = await ticketsOf(ctx);
    expect(ticket!.userId).toBe(agent.id);
    expect(ticket!.status).toBe("open");
    out = await outbox(ctx, token, conn.id, from);
    expect(out.at(-1)?.body).toBe(`${LRM}Connecting you`);
  });

  test("after 3 invalid answers in a row the chatbot stops: the ticket waits in its queue for a person, and its history says why", async () => {
    const { ctx, token, qs, conn } = await setup({ queues: 1 });
    await ctx.db.insert(chatbots).values({ name: "Sales", greetingMessage: "Sales menu", queueId: qs[0]!.id });
    const from = "5511988887777";
    await inbound(ctx, token, conn.id, { from, body: "Oi" });
    const before = (await outbox(ctx, token, conn.id, from)).length;
    for (const body of ["x", "y", "z", "w"]) {
      ctx.clock.advance(60_000);
      await inbound(ctx, token, conn.id, { from, body });
    }
    // x and y get the menu again; z is the third invalid answer: the bot stops, and w gets nothing.
    expect((await outbox(ctx, token, conn.id, from)).length).toBe(before + 2);
    const [ticket] = await ticketsOf(ctx);
    expect(ticket).toMatchObject({ isBot: false, status: "pending", queueId: qs[0]!.id, userId: null });
    const events = await call(ctx.app, "GET", `/api/tickets/${ticket!.id}/events`, { token });
    expect(events.json.events.at(-1)).toMatchObject({ kind: "bot_stopped", cause: "chatbot", value: 3, actor: null });
    expect(ctx.hub.named("ticketEvent").at(-1)!.payload.event).toMatchObject({ kind: "bot_stopped" });

    // Resolved, then the customer writes again: the reopened ticket starts over with the bot's menu.
    await call(ctx.app, "PUT", `/api/tickets/${ticket!.id}`, { token, body: { status: "closed" } });
    ctx.clock.advance(60_000);
    const sent = (await outbox(ctx, token, conn.id, from)).length;
    await inbound(ctx, token, conn.id, { from, body: "Oi de novo" });
    const out = await outbox(ctx, token, conn.id, from);
    expect(out).toHaveLength(sent + 1);
    expect(out.at(-1)!.body).toBe(`${LRM}Welcome to queue 1\n\n*1* - Sales\n\n*#* Voltar para o menu principal`);
    expect((await ticketsOf(ctx))[0]).toMatchObject({ id: ticket!.id, isBot: true, status: "pending" });
  });

  test("at the queue menu too, 3 invalid answers in a row stop the bot; a valid answer in between starts the count again", async () => {
    const { ctx, token, qs, conn } = await setup();
    await ctx.db.insert(chatbots).values({ name: "Sales", greetingMessage: "Sales menu", queueId: qs[0]!.id });
    const from = "5511988887777";
    await inbound(ctx, token, conn.id, { from, body: "Oi" });
    for (const body of ["x", "y"]) {
      ctx.clock.advance(60_000);
      await inbound(ctx, token, conn.id, { from, body });
    }
    ctx.clock.advance(60_000);
    await inbound(ctx, token, conn.id, { from, body: "1" });
    await inbound(ctx, token, conn.id, { from, body: "#" });
    expect((await ticketsOf(ctx))[0]!.isBot).toBe(true);
    for (const body of ["a", "b", "c"]) {
      ctx.clock.advance(60_000);
      await inbound(ctx, token, conn.id, { from, body });
    }
    const sent = (await outbox(ctx, token, conn.id, from)).length;
    ctx.clock.advance(60_000);
    await inbound(ctx, token, conn.id, { from, body: "still there?" });
    expect(await outbox(ctx, token, conn.id, from)).toHaveLength(sent);
    expect((await ticketsOf(ctx))[0]).toMatchObject({ isBot: false, queueId: null, status: "pending" });
  });

  test("the bot's fixed texts and missed calls are written in the connection's language", async () => {
    const { ctx, token, qs, conn } = await setup();
    await ctx.db.update(connections).set({ language: "en" }).where(eq(connections.id, conn.id));
    await ctx.db.insert(chatbots).values({ name: "Sales", greetingMessage: "Sales menu", queueId: qs[0]!.id });
    const from = "5511988887777";
    await inbound(ctx, token, conn.id, { from, body: "Oi" });
    ctx.clock.advance(60_000);
    await inbound(ctx, token, conn.id, { from, body: "hmm" });
    await inbound(ctx, token, conn.id, { from, body: "1" });
    const out = (await outbox(ctx, token, conn.id, from)).map((m) => m.body);
    expect(out[1]).toStartWith(`${LRM}Invalid option. Reply with the number of one of the options:\n\n`);
    expect(out.at(-1)).toBe(`${LRM}Welcome to queue 1\n\n*1* - Sales\n\n*#* Back to the main menu`);
    await ctx.db.update(connections).set({ language: "es" }).where(eq(connections.id, conn.id));
    await ctx.db.update(settings).set({ value: "disabled" }).where(eq(settings.key, "call"));
    await inbound(ctx, token, conn.id, { from: "5511955554444", call: "missed" });
    const log = await ctx.db.select().from(messages).where(eq(messages.mediaType, "call_log"));
    expect(log[0]!.body).toMatch(/^Llamada de voz\/video perdida a las \d{2}:\d{2}$/);
    expect((await outbox(ctx, token, conn.id, "5511955554444")).map((m) => m.body)).toEqual([
      `${LRM}*Mensaje automático:*\nLas llamadas de voz y video están desactivadas en este WhatsApp, por favor envía un mensaje de texto. Gracias`,
    ]);
  });

  test("a missed call is logged in a new pending ticket; with calls disabled the caller gets the auto message once", async () => {
    const { ctx, token, conn } = await setup();
    await inbound(ctx, token, conn.id, { from: "5511955554444", call: "missed" });
    const log = await ctx.db.select().from(messages).where(eq(messages.mediaType, "call_log"));
    expect(log).toHaveLength(1);
    expect(log[0]!.body).toMatch(/^Chamada de voz\/vídeo perdida às \d{2}:\d{2}$/);
    expect((await ticketsOf(ctx))[0]!.status).toBe("pending");
    expect(await outbox(ctx, token, conn.id, "5511955554444")).toHaveLength(0);
    await ctx.db.update(settings).set({ value: "disabled" }).where(eq(settings.key, "call"));
    await inbound(ctx, token, conn.id, { from: "5511955554444", call: "missed" });
    await inbound(ctx, token, conn.id, { from: "5511955554444", call: "missed" });
    const out = await outbox(ctx, token, conn.id, "5511955554444");
    expect(out).toHaveLength(1);
    expect(out[0].body).toContain("chamadas de voz e vídeo estão desabilitadas");
  });

  test("a call handled again, as after a restart, is neither rejected nor answered twice", async () => {
    const { ctx, token, conn } = await setup();
    await ctx.db.update(settings).set({ value: "disabled" }).where(eq(settings.key, "call"));
    const rejected: string[] = [];
    ctx.sandbox.rejectCall = async (_connectionId, callId) => void rejected.push(callId);
    const offer = { id: "CALL-R", from: "5511955554444", at: ctx.clock.now(), kind: "offer" as const };
    await createIngest(ctx.deps).onCall(conn.id, offer);
    // A new ingest starts with no memory of earlier answers, as the process does after a restart.
    await createIngest(ctx.deps).onCall(conn.id, offer);
    expect(rejected).toEqual(["CALL-R"]);
    expect(await ctx.db.select().from(messages).where(eq(messages.mediaType, "call_log"))).toHaveLength(1);
    expect(await outbox(ctx, token, conn.id, "5511955554444")).toHaveLength(1);
  });
});
