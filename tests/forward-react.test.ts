// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { contacts, type ConnectionRow, messages, queues, tickets } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const CUSTOMER = "5511988887777";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString("base64");

/** A customer who wrote in (a text, or `media`), and their ticket, open with `userId` (or waiting without). */
async function customerTicket(
  ctx: TestContext,
  conn: ConnectionRow,
  userId: number | null,
  from = CUSTOMER,
  media?: { mediaType: "image"; mediaBase64: string; fileName: string; body: string },
) {
  const wid = await ctx.sandbox.inbound(conn.id, { from, name: `Client ${from.slice(-4)}`, body: "Oi", ...media });
  const contact = await one(ctx.db.select().from(contacts).where(eq(contacts.number, from)));
  const status = userId == null ? "pending" : "open";
  const ticket = await one(
    ctx.db.update(tickets).set({ status, userId }).where(eq(tickets.contactId, contact.id)).returning(),
  );
  const message = await one(ctx.db.select().from(messages).where(eq(messages.wid, wid)));
  return { contact, ticket, message };
}

async function newContact(ctx: TestContext, number: string) {
  return await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Contact ${number}`, number })
      .returning(),
  );
}

async function setup() {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const conn = await createSandboxConnection(ctx, { isDefault: true });
  return { ctx, admin, agent, conn };
}

const outbox = async (ctx: TestContext, token: string, conn: ConnectionRow, to: string) =>
  (await call(ctx.app, "GET", `/api/sandbox/${conn.id}/outbox?to=${to}`, { token })).json as {
    id: string;
    body: string;
    mediaType: string;
    fileName: string | null;
    quotedId: string | null;
  }[];

describe("forwarding a message", () => {
  test("a text forwarded to two contacts goes out on the agent's open ticket of one and a new ticket of the other", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const { message } = await customerTicket(ctx, conn, agent.user.id);
    const held = await customerTicket(ctx, conn, agent.user.id, "5511977776666");
    const fresh = await newContact(ctx, "5511966665555");
    const res = await call(ctx.app, "POST", `/api/messages/${message.id}/forward`, {
      token: agent.token,
      body: { contactIds: [held.contact.id, fresh.id] },
    });
    expect(res.status).toBe(200);
    const created = await one(ctx.db.select().from(tickets).where(eq(tickets.contactId, fresh.id)));
    expect(created).toMatchObject({ status: "open", userId: agent.user.id, whatsappId: conn.id });
    expect(
      res.json.messages.map((m: { ticketId: number; body: string; fromMe: boolean; sendState: string }) => [
        m.ticketId,
        m.body,
        m.fromMe,
        m.sendState,
      ]),
    ).toEqual([
      [held.ticket.id, "Oi", true, "sent"],
      [created.id, "Oi", true, "sent"],
    ]);
    expect((await outbox(ctx, admin.token, conn, "5511977776666")).map((m) => m.body)).toEqual(["Oi"]);
    expect((await outbox(ctx, admin.token, conn, "5511966665555")).map((m) => m.body)).toEqual(["Oi"]);
  });

  test("a forwarded file goes out with its caption under a name of its own, the original's file kept", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const photo = { mediaType: "image" as const, mediaBase64: PNG, fileName: "shelf.png", body: "Which one?" };
    const { message } = await customerTicket(ctx, conn, agent.user.id, CUSTOMER, photo);
    const other = await newContact(ctx, "5511966665555");
    const res = await call(ctx.app, "POST", `/api/messages/${message.id}/forward`, {
      token: agent.token,
      body: { contactIds: [other.id] },
    });
    expect(res.status).toBe(200);
    const copy = await one(
      ctx.db
        .select()
        .from(messages)
        .where(and(eq(messages.fromMe, true), eq(messages.mediaType, "image"))),
    );
    expect(copy).toMatchObject({
      body: "Which one?",
      fileName: "shelf.png",
      mediaMime: "image/png",
      sendState: "sent",
    });
    expect(copy.mediaUrl).not.toBe(message.mediaUrl);
    for (const name of [copy.mediaUrl!, message.mediaUrl!])
      expect(existsSync(join(ctx.deps.config.mediaDir, name))).toBe(true);
    expect(await outbox(ctx, admin.token, conn, "5511966665555")).toMatchObject([
      { body: "Which one?", mediaType: "image", fileName: "shelf.png" },
    ]);
  });

  test("a forward waits in the outbox while the connection is down and goes out once, when it is back", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const { message } = await customerTicket(ctx, conn, agent.user.id);
    const other = await newContact(ctx, "5511966665555");
    await ctx.channels.stop(conn.id);
    const res = await call(ctx.app, "POST", `/api/messages/${message.id}/forward`, {
      token: agent.token,
      body: { contactIds: [other.id] },
    });
    expect(res.json.messages[0].sendState).toBe("queued");
    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    expect((await outbox(ctx, admin.token, conn, "5511966665555")).map((m) => m.body)).toEqual(["Oi"]);
    const copy = await one(ctx.db.select().from(messages).where(eq(messages.id, res.json.messages[0].id)));
    expect(copy.sendState).toBe("sent");
  });

  test("refusals: unknown message 404, a message the user may not see 403, an unknown contact 404, a contact someone else holds ERR_OTHER_OPEN_TICKET, no contacts 400", async () => {
    const { ctx, agent, conn } = await setup();
    const outsider = await loginAs(ctx);
    const { message } = await customerTicket(ctx, conn, agent.user.id);
    const taken = await customerTicket(ctx, conn, outsider.user.id, "5511977776666");
    const forward = async (token: string, id: number, contactIds: unknown) => {
      const res = await call(ctx.app, "POST", `/api/messages/${id}/forward`, { token, body: { contactIds } });
      return [res.status, res.json.error];
    };
    const other = await newContact(ctx, "5511966665555");
    expect(await forward(agent.token, 9999, [other.id])).toEqual([404, "ERR_NO_MESSAGE_FOUND"]);
    expect(await forward(agent.token, message.id, [9999])).toEqual([404, "ERR_NO_CONTACT_FOUND"]);
    expect(await forward(agent.token, message.id, [taken.contact.id])).toEqual([400, "ERR_OTHER_OPEN_TICKET"]);
    expect(await forward(agent.token, message.id, [])).toEqual([400, "VALIDATION"]);
    expect(await forward(agent.token, message.id, ["x"])).toEqual([400, "VALIDATION"]);
    const sales = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#123456" }).returning());
    await ctx.db
      .update(tickets)
      .set({ queueId: sales.id, userId: outsider.user.id })
      .where(eq(tickets.id, message.ticketId));
    expect(await forward(agent.token, message.id, [other.id])).toEqual([403, "ERR_NO_PERMISSION"]);
    expect(await ctx.db.select().from(messages).where(eq(messages.fromMe, true))).toEqual([]);
  });

  test("a private note or a deleted message is not forwarded (400 ERR_INVALID_BODY)", async () => {
    const { ctx, agent, conn } = await setup();
    const { ticket, message } = await customerTicket(ctx, conn, agent.user.id);
    const other = await newContact(ctx, "5511966665555");
    const note = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "team only", isPrivate: true },
    });
    const forward = (id: number) =>
      call(ctx.app, "POST", `/api/messages/${id}/forward`, { token: agent.token, body: { contactIds: [other.id] } });
    expect((await forward(note.json.messages[0].id)).json.error).toBe("ERR_INVALID_BODY");
    await ctx.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, message.id));
    expect((await forward(message.id)).json.error).toBe("ERR_INVALID_BODY");
  });
});

describe("reacting to a customer's message", () => {
  test("a reaction reaches the customer's phone and shows on the bubble; an empty emoji takes it back", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const { ticket, message } = await customerTicket(ctx, conn, agent.user.id);
    const react = await call(ctx.app, "POST", `/api/messages/${message.id}/react`, {
      token: agent.token,
      body: { emoji: "👍" },
    });
    expect(react.status).toBe(200);
    expect(react.json.reactions).toEqual([{ emoji: "👍", reactor: "me" }]);
    expect(ctx.hub.to(`ticket:${ticket.id}`, "appMessage").at(-1)!.payload.message.reactions).toEqual([
      { emoji: "👍", reactor: "me" },
    ]);
    const undo = await call(ctx.app, "POST", `/api/messages/${message.id}/react`, {
      token: agent.token,
      body: { emoji: "" },
    });
    expect(undo.json.reactions).toEqual([]);
    expect((await outbox(ctx, admin.token, conn, CUSTOMER)).map((m) => [m.mediaType, m.body, m.quotedId])).toEqual([
      ["reaction", "👍", message.wid],
      ["reaction", "", message.wid],
    ]);
    const page = await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token: agent.token });
    expect(page.json.messages.find((m: { id: number }) => m.id === message.id).reactions).toEqual([]);
  });

  test("refusals: own message 400 ERR_INVALID_BODY, someone else's ticket 403, a word instead of an emoji 400 VALIDATION, connection down ERR_WAPP_NOT_INITIALIZED", async () => {
    const { ctx, agent, conn } = await setup();
    const other = await loginAs(ctx);
    const { ticket, message } = await customerTicket(ctx, conn, agent.user.id);
    const reply = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Olá" },
    });
    const react = async (token: string, id: number, emoji: unknown) => {
      const res = await call(ctx.app, "POST", `/api/messages/${id}/react`, { token, body: { emoji } });
      return [res.status, res.json.error];
    };
    expect(await react(agent.token, reply.json.messages[0].id, "👍")).toEqual([400, "ERR_INVALID_BODY"]);
    expect(await react(other.token, message.id, "👍")).toEqual([403, "ERR_NO_PERMISSION"]);
    expect(await react(agent.token, message.id, "nice")).toEqual([400, "VALIDATION"]);
    expect(await react(agent.token, 9999, "👍")).toEqual([404, "ERR_NO_MESSAGE_FOUND"]);
    await ctx.channels.stop(conn.id);
    expect((await react(agent.token, message.id, "❤️"))[1]).toBe("ERR_WAPP_NOT_INITIALIZED");
    expect((await one(ctx.db.select().from(messages).where(eq(messages.id, message.id)))).id).toBe(message.id);
  });
});
