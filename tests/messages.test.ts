// @engine each
import { waitFor } from "./wait-for";
import { one, first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messageReactions, messages, queues, tickets, type TicketRow } from "../src/db/tables";
import { LRM, renderPlaceholders } from "../src/modules/messages/placeholders";
import { sendTicketText } from "../src/modules/messages/send";
import { markRevoked, storeMessage, updateAck } from "../src/modules/messages/store";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

let seq = 0;
async function seedTicket(ctx: TestContext, values: Partial<TicketRow> = {}) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Ana ${++seq}`, number: `55119${String(seq).padStart(8, "0")}` })
      .returning(),
  );
  const ticket = await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "open", ...values })
      .returning(),
  );
  return { contact, ticket };
}

describe("placeholders", () => {
  const at = new Date("2026-03-05T09:07:03Z");
  test("name is inserted unescaped, greeting and protocol follow the configured time zone", () => {
    expect(renderPlaceholders("{{gretting}} {{name}}!", { contactName: "Tom & Jerry" }, at, "UTC")).toBe(
      "Bom dia Tom & Jerry!",
    );
    expect(
      renderPlaceholders("{{ms}}", { contactName: "x" }, new Date("2026-03-05T07:07:03Z"), "America/Sao_Paulo"),
    ).toBe("Boa madrugada");
    expect(renderPlaceholders("{{protocol}} {{hora}}", { contactName: "x" }, at, "UTC")).toBe("2026030590703 9:07:03");
  });
  test("queue, agent, ticket and client placeholders; unknown tags stay", () => {
    const out = renderPlaceholders(
      "{{fila}}/{{atendente}}/{TICKET}/{CLIENTE}/{{other}}",
      { contactName: "Ana", ticketId: 7, queueName: "Vendas", userName: "Bia" },
      at,
      "UTC",
    );
    expect(out).toBe("Vendas/Bia/7/Ana/{{other}}");
  });
  test("greeting boundaries: 0-5 madrugada, 12 tarde, 18 noite", () => {
    const h = (hour: number) =>
      renderPlaceholders("{{gretting}}", { contactName: "" }, new Date(Date.UTC(2026, 0, 1, hour)), "UTC");
    expect([h(5), h(6), h(12), h(18), h(23)]).toEqual([
      "Boa madrugada",
      "Bom dia",
      "Boa tarde",
      "Boa noite",
      "Boa noite",
    ]);
  });
});

describe("storeMessage", () => {
  test("stores once per (connection, id): a re-delivery returns the row with created false and changes nothing", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { contact, ticket } = await seedTicket(ctx, { whatsappId: wa.id });
    const input = {
      whatsappId: wa.id,
      wid: "W1",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "oi",
      fromMe: false,
    };
    const first = await storeMessage(ctx.deps, input);
    expect(first.created).toBe(true);
    const again = await storeMessage(ctx.deps, { ...input, body: "changed" });
    expect(again).toMatchObject({ created: false, message: { id: first.message.id, body: "oi" } });
    const row = (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id))))!;
    expect(row).toMatchObject({ unreadMessages: 1, lastMessage: "oi" });
    expect(ctx.hub.named("appMessage").filter((e) => e.room === `ticket:${ticket.id}`)).toHaveLength(1);
  });

  test("inbound messages count as unread, own ones and countUnread:false do not; updatedAt always moves", async () => {
    const ctx = await makeTestApp();
    const { contact, ticket } = await seedTicket(ctx);
    await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "a",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "same",
      fromMe: false,
    });
    ctx.clock.advance(1000);
    await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "b",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "same",
      fromMe: false,
    });
    await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "c",
      ticketId: ticket.id,
      contactId: null,
      body: "mine",
      fromMe: true,
    });
    ctx.clock.advance(1000);
    await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "d",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "bot",
      fromMe: false,
      countUnread: false,
    });
    const row = (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id))))!;
    expect(row.unreadMessages).toBe(2);
    expect(row.updatedAt.getTime()).toBe(ctx.clock.now());
  });

  test("the create event carries message, ticket and contact, to the ticket's rooms only; a stored quote is linked", async () => {
    const ctx = await makeTestApp();
    const queue = await one(ctx.db.insert(queues).values({ name: "Q", color: "#111" }).returning());
    const { contact, ticket } = await seedTicket(ctx, { queueId: queue.id, status: "pending" });
    const first = await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "q1",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "first",
      fromMe: false,
    });
    ctx.hub.clear();
    const reply = await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "q2",
      ticketId: ticket.id,
      contactId: contact.id,
      body: "second",
      fromMe: false,
      quotedWid: "q1",
    });
    expect(reply.message.quotedMsgId).toBe(first.message.id);
    const rooms: string[] = ctx.hub
      .named("appMessage")
      .map((e) => e.room)
      .sort();
    expect(rooms).toEqual(
      [
        "notification",
        `queue:${queue.id}:notification`,
        `queue:${queue.id}:status:pending`,
        "status:pending",
        `ticket:${ticket.id}`,
      ].sort(),
    );
    const payload = ctx.hub.named("appMessage")[0]!.payload;
    expect(payload).toMatchObject({
      action: "create",
      message: { body: "second", quotedMsg: { body: "first", contact: { name: contact.name } } },
      ticket: { id: ticket.id },
      contact: { id: contact.id },
    });
  });

  test("acks only go up; the message's update goes to its chat only, its lists hear the ticks of the shown message; revoke marks deleted", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { ticket } = await seedTicket(ctx, { whatsappId: wa.id });
    await storeMessage(ctx.deps, {
      whatsappId: wa.id,
      wid: "m",
      ticketId: ticket.id,
      contactId: null,
      body: "x",
      fromMe: true,
    });
    ctx.hub.clear();
    expect((await updateAck(ctx.deps, wa.id, "m", 3))?.ack).toBe(3);
    expect(await updateAck(ctx.deps, wa.id, "m", 2)).toBeUndefined();
    expect(await updateAck(ctx.deps, wa.id, "unknown", 4)).toBeUndefined();
    expect(ctx.hub.named("appMessage").map((e) => e.room)).toEqual([`ticket:${ticket.id}`]);
    expect(ctx.hub.named("ticket").map((e) => e.payload)).toContainEqual({
      action: "updateAck",
      ticketId: ticket.id,
      messageId: 1,
      ack: 3,
    });
    expect((await markRevoked(ctx.deps, wa.id, "m"))?.isDeleted).toBe(true);
    expect(ctx.hub.named("appMessage").at(-1)!.payload).toMatchObject({
      action: "update",
      message: { isDeleted: true, ack: 3 },
    });
  });
});

describe("sendTicketText", () => {
  test("stores the row first (fromMe, read, ack 0) and sends on the ticket's connection; unread untouched", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { contact, ticket } = await seedTicket(ctx, { whatsappId: wa.id, unreadMessages: 2 });
    const row = await sendTicketText(ctx.deps, ticket, "hello {{name}}");
    expect(row).toMatchObject({ fromMe: true, read: true, body: "hello {{name}}" });
    expect((await ctx.sandbox.network.outbox(wa.id, contact.number!)).map((m) => m.body)).toEqual(["hello {{name}}"]);
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id))))!.unreadMessages).toBe(2);
  });

  test("automatic messages are LRM-prefixed and rendered", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { contact, ticket } = await seedTicket(ctx, { whatsappId: wa.id });
    const row = await sendTicketText(ctx.deps, ticket, "Bye {{name}} #{TICKET}", { auto: true });
    expect(row.body).toBe(`${LRM}Bye ${contact.name} #${ticket.id}`);
  });

  test("a connection-less ticket gets the default connection; none → ERR_NO_DEF_WAPP_FOUND", async () => {
    const ctx = await makeTestApp();
    const { ticket } = await seedTicket(ctx);
    await expect(sendTicketText(ctx.deps, ticket, "x")).rejects.toMatchObject({ code: "ERR_NO_DEF_WAPP_FOUND" });
    const wa = await createSandboxConnection(ctx, { isDefault: true });
    await sendTicketText(ctx.deps, ticket, "x");
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id))))!.whatsappId).toBe(wa.id);
  });

  test("a connection that is not running keeps the message queued with ack 0 and sends nothing", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx, { scan: false });
    await ctx.channels.stop(wa.id);
    const { ticket } = await seedTicket(ctx, { whatsappId: wa.id });
    const row = await sendTicketText(ctx.deps, ticket, "x");
    expect(row).toMatchObject({ body: "x", fromMe: true, ack: 0, sendState: "queued", sendError: null });
    expect(await ctx.db.select().from(messages)).toHaveLength(1);
    expect(await ctx.sandbox.network.outbox(wa.id)).toHaveLength(0);
  });

  test("a send that fails for good keeps the message as failed with its error and tells the chat, after its creation", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { ticket } = await seedTicket(ctx, { whatsappId: wa.id });
    const channels = ctx.deps.channels;
    ctx.deps.channels = Object.assign(Object.create(channels), {
      sendText: async () => Promise.reject(new Error("network down")),
      isRunning: () => true,
      newMessageId: () => "F1",
    });
    const row = await sendTicketText(ctx.deps, ticket, "x");
    expect(row).toMatchObject({ wid: "F1", ack: 0, sendState: "failed", sendError: "ERR_SENDING_WAPP_MSG" });
    expect(await ctx.db.select().from(messages)).toHaveLength(1);
    // The chat hears it, whichever flush of the connection carried the send out.
    await waitFor(() =>
      ctx.hub
        .named("appMessage")
        .some(
          (e) =>
            e.payload.action === "update" &&
            e.payload.message.id === row.id &&
            e.payload.message.sendState === "failed",
        ),
    );
    // Created first: a flush that claims the message as its transaction commits reports it only after that.
    const heard = ctx.hub
      .named("appMessage")
      .filter((e) => e.payload.message.id === row.id)
      .map((e) => `${e.payload.action}:${e.payload.message.sendState}`);
    expect(heard[0]).toBe("create:queued");
  });
});

describe("opening a chat", () => {
  test("a ticket whose count says read still gets its unread messages marked, and its page shows them read", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { unreadMessages: 0 });
    // Stored without counting as unread (a call notice, say): the ticket's count stays 0.
    await ctx.db.insert(messages).values({ wid: "quiet", ticketId: ticket.id, contactId: contact.id, body: "oi" });
    const opened = await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token });
    expect(opened.json.messages.map((m: { body: string; read: boolean }) => [m.body, m.read])).toEqual([["oi", true]]);
    const stored = await firstRow(ctx.db.select().from(messages).where(eq(messages.wid, "quiet")));
    expect(stored!.read).toBe(true);
    const again = await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token });
    expect(again.json).toEqual(opened.json);
  });
});

describe("the history's pages", () => {
  test("a contact's tickets whose messages interleave in time page as one history, newest page first, each page in order", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const contact = await one(ctx.db.insert(contacts).values({ name: "Ana", number: "5511988880001" }).returning());
    const ticketsOfAna = await ctx.db
      .insert(tickets)
      .values([0, 1, 2].map(() => ({ contactId: contact.id, status: "closed" as const })))
      .returning();
    // 70 messages, dealt to the three tickets in turn, a second apart; two share each instant but one.
    const at = (i: number) => new Date(1_700_000_000_000 + Math.floor(i / 2) * 1000);
    await ctx.db.insert(messages).values(
      Array.from({ length: 70 }, (_, i) => ({
        wid: `h${i}`,
        ticketId: ticketsOfAna[i % 3]!.id,
        contactId: contact.id,
        body: `m${i}`,
        createdAt: at(i),
      })),
    );
    const pages: string[][] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await call(ctx.app, "GET", `/api/messages/${ticketsOfAna[0]!.id}?pageNumber=${page}`, { token });
      expect(res.json).toMatchObject({ count: 70, hasMore: page < 4 });
      pages.push(res.json.messages.map((m: { body: string }) => m.body));
    }
    // Newest first by time, then by id: the order of insertion here.
    const all = Array.from({ length: 70 }, (_, i) => `m${i}`);
    expect(pages).toEqual([all.slice(50, 70), all.slice(30, 50), all.slice(10, 30), all.slice(0, 10)]);
  });

  test("each page of a contact's tickets shows the reactions to its own messages, each message's in the order given", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const contact = await one(ctx.db.insert(contacts).values({ name: "Bia", number: "5511988880002" }).returning());
    const [older, newer] = await ctx.db
      .insert(tickets)
      .values([
        { contactId: contact.id, status: "closed" as const },
        { contactId: contact.id, status: "open" as const },
      ])
      .returning();
    const rows = await ctx.db
      .insert(messages)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          wid: `r${i}`,
          ticketId: (i % 2 ? newer : older)!.id,
          contactId: contact.id,
          body: `m${i}`,
          createdAt: new Date(1_700_000_000_000 + i * 1000),
        })),
      )
      .returning();
    const at = (s: number) => new Date(1_700_100_000_000 + s * 1000);
    await ctx.db.insert(messageReactions).values([
      { messageId: rows[29]!.id, reactor: "5511988880002", emoji: "❤️", createdAt: at(2) },
      { messageId: rows[29]!.id, reactor: "me", emoji: "👍", createdAt: at(1) },
      { messageId: rows[12]!.id, reactor: "me", emoji: "😂", createdAt: at(3) },
      { messageId: rows[3]!.id, reactor: "5511988880002", emoji: "🙏", createdAt: at(4) },
    ]);
    const reacted = async (page: number) => {
      const res = await call(ctx.app, "GET", `/api/messages/${newer!.id}?pageNumber=${page}`, { token });
      const shown = res.json.messages as { body: string; reactions: unknown[] }[];
      return Object.fromEntries(shown.filter((m) => m.reactions.length).map((m) => [m.body, m.reactions]));
    };
    expect(await reacted(1)).toEqual({
      m29: [
        { emoji: "👍", reactor: "me" },
        { emoji: "❤️", reactor: "5511988880002" },
      ],
      m12: [{ emoji: "😂", reactor: "me" }],
    });
    expect(await reacted(2)).toEqual({ m3: [{ emoji: "🙏", reactor: "5511988880002" }] });
  });
});
