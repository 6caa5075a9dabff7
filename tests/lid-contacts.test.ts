// @engine each
import { first, one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  contactExtraInfo,
  contacts,
  messageReactions,
  messages,
  schedules,
  tags,
  tickets,
  ticketTags,
  users,
} from "../src/db/tables";
import { linkLid } from "../src/modules/contacts/lid";
import { botActions } from "../src/modules/inbound/actions";
import { InboundPipeline } from "../src/modules/inbound/pipeline";
import { sendTicketText } from "../src/modules/messages/send";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const LID = "123456789012345";
const PHONE = "5511988887777";

async function say(ctx: TestContext, whatsappId: number, token: string, body: Record<string, unknown>) {
  const res = await call(ctx.app, "POST", `/api/sandbox/${whatsappId}/inbound`, { token, body });
  expect(res.status).toBe(200);
  return res.json.id as string;
}

async function setup() {
  const ctx = await makeTestApp();
  const { token } = await loginAs(ctx, { profile: "admin" });
  const conn = await createSandboxConnection(ctx);
  return { ctx, token, conn };
}

const contactRows = async (ctx: TestContext) => await ctx.db.select().from(contacts);
const ticketsOf = async (ctx: TestContext, contactId: number) =>
  await ctx.db.select().from(tickets).where(eq(tickets.contactId, contactId));

describe("a sender WhatsApp shows only by a LID", () => {
  test("gets a contact without a number, named by their push name, with a pending ticket holding the message", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Duda", body: "oi" });
    const [contact] = await contactRows(ctx);
    expect(contact).toMatchObject({ number: null, lid: LID, name: "Duda", isGroup: false });
    const [ticket] = await ticketsOf(ctx, contact!.id);
    expect(ticket).toMatchObject({ status: "pending", lastMessage: "oi", unreadMessages: 1 });
    expect(ctx.hub.named("contact")[0]!.payload).toMatchObject({
      action: "create",
      contact: { id: contact!.id, number: null, lid: LID, name: "Duda" },
    });
  });

  test("without a push name is named by its LID address, never by digits that look like a phone, and renamed by a later push name", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: `lid:${LID}`, body: "1" });
    expect((await contactRows(ctx))[0]!.name).toBe(`lid:${LID}`);
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Duda", body: "2" });
    expect((await contactRows(ctx)).map((c) => c.name)).toEqual(["Duda"]);
  });

  test("is answered at their LID, and is listed and shown with a null number (no 500 anywhere)", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Duda", body: "oi" });
    const contact = (await contactRows(ctx))[0]!;
    const ticket = (await ticketsOf(ctx, contact.id))[0]!;
    await sendTicketText(ctx.deps, ticket, "Olá Duda");
    expect((await ctx.sandbox.network.outbox(conn.id, `lid:${LID}`)).map((m) => m.body)).toEqual(["Olá Duda"]);

    const list = await call(ctx.app, "GET", "/api/contacts?searchParam=duda", { token });
    expect(list.json.contacts).toMatchObject([{ id: contact.id, number: null, name: "Duda" }]);
    const shown = await call(ctx.app, "GET", `/api/tickets/${ticket.id}`, { token });
    expect(shown.json.contact).toMatchObject({ number: null, name: "Duda" });
    const renamed = await call(ctx.app, "PUT", `/api/contacts/${contact.id}`, { token, body: { name: "Duda Silva" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: "Duda Silva", number: null, lid: LID });
    expect((await call(ctx.app, "GET", `/api/tickets/${ticket.id}/call`, { token })).status).toBe(404);
  });

  test("in a group is the message's sender by LID; a missed call from a LID is logged in their own ticket", async () => {
    const { ctx, token, conn } = await setup();
    await call(ctx.app, "PUT", "/api/settings/CheckMsgIsGroup", { token, body: { value: "disabled" } });
    await say(ctx, conn.id, token, {
      from: `lid:${LID}`,
      name: "Caio",
      groupId: "120363000000000001",
      groupName: "Grupo",
      body: "oi grupo",
    });
    const caio = (await first(ctx.db.select().from(contacts).where(eq(contacts.lid, LID))))!;
    expect(caio).toMatchObject({ number: null, name: "Caio" });
    expect(await ctx.db.select().from(messages)).toMatchObject([{ body: "oi grupo", contactId: caio.id }]);
    await say(ctx, conn.id, token, { from: `lid:${LID}`, call: "missed" });
    expect(await ticketsOf(ctx, caio.id)).toHaveLength(1);
  });
});

describe("when WhatsApp tells a LID's phone number", () => {
  test("with no contact for that number, the LID contact simply gets it; the number's next message lands in the same ticket", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Duda", body: "oi" });
    ctx.hub.clear();
    expect(
      (await call(ctx.app, "POST", `/api/sandbox/${conn.id}/lid-mapping`, { token, body: { lid: LID, phone: PHONE } }))
        .status,
    ).toBe(200);
    const [contact] = await contactRows(ctx);
    expect(contact).toMatchObject({ number: PHONE, lid: LID, name: "Duda" });
    expect(ctx.hub.named("contact").map((e) => e.payload)).toEqual([{ action: "update", contact }]);
    await say(ctx, conn.id, token, { from: PHONE, body: "de novo" });
    expect(await contactRows(ctx)).toHaveLength(1);
    expect((await ticketsOf(ctx, contact!.id)).map((t) => t.lastMessage)).toEqual(["de novo"]);
  });

  test("the LID contact is merged into the phone contact: tickets, messages, tags, extra info, schedules and reactions move, and one active ticket remains", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: PHONE, name: "Ana", body: "antes" });
    const phone = (await contactRows(ctx))[0]!;
    const agent = (await first(ctx.db.select().from(users)))!;
    const open = (await ticketsOf(ctx, phone.id))[0]!;
    await ctx.db
      .update(tickets)
      .set({ status: "open", userId: agent.id, updatedAt: open.updatedAt })
      .where(eq(tickets.id, open.id));
    await ctx.db.insert(contactExtraInfo).values({ contactId: phone.id, name: "cpf", value: "1" });

    ctx.clock.advance(60_000);
    const reacted = await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Ana LID", body: "pelo LID" });
    const lidContact = (await first(ctx.db.select().from(contacts).where(eq(contacts.lid, LID))))!;
    const pending = (await ticketsOf(ctx, lidContact.id))[0]!;
    const closedOld = await one(
      ctx.db.insert(tickets).values({ contactId: lidContact.id, whatsappId: conn.id, status: "closed" }).returning(),
    );
    const tag = await one(ctx.db.insert(tags).values({ name: "vip" }).returning());
    await ctx.db.insert(ticketTags).values({ ticketId: pending.id, tagId: tag.id });
    await ctx.db.insert(contactExtraInfo).values({ contactId: lidContact.id, name: "email2", value: "a@b.c" });
    await ctx.db.insert(schedules).values({
      contactId: lidContact.id,
      ticketId: pending.id,
      body: "lembrete",
      sendAt: new Date(ctx.clock.now() + 3600_000),
    });
    const target = (await first(ctx.db.select().from(messages).where(eq(messages.wid, reacted))))!;
    await ctx.db.insert(messageReactions).values({ messageId: target.id, reactor: `lid:${LID}`, emoji: "👍" });
    ctx.hub.clear();

    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/lid-mapping`, { token, body: { lid: LID, phone: PHONE } });

    expect(await contactRows(ctx)).toMatchObject([{ id: phone.id, number: PHONE, lid: LID, name: "Ana" }]);
    const remaining = (await ticketsOf(ctx, phone.id)).sort((a, b) => a.id - b.id);
    expect(remaining.map((t) => [t.id, t.status])).toEqual([
      [open.id, "open"],
      [closedOld.id, "closed"],
    ]);
    expect(remaining[0]).toMatchObject({ userId: agent.id, unreadMessages: 2, lastMessage: "pelo LID" });
    expect(remaining.map((t) => t.messageCount)).toEqual([2, 0]);
    expect((await ctx.db.select().from(messages)).map((m) => [m.body, m.ticketId, m.contactId])).toEqual([
      ["antes", open.id, phone.id],
      ["pelo LID", open.id, phone.id],
    ]);
    expect(await ctx.db.select().from(ticketTags)).toEqual([{ ticketId: open.id, tagId: tag.id }]);
    expect((await ctx.db.select().from(contactExtraInfo)).map((e) => [e.contactId, e.name])).toEqual([
      [phone.id, "cpf"],
      [phone.id, "email2"],
    ]);
    expect(await ctx.db.select().from(schedules)).toMatchObject([{ contactId: phone.id, ticketId: open.id }]);
    expect(await ctx.db.select().from(messageReactions)).toMatchObject([{ messageId: target.id, reactor: PHONE }]);

    const events = ctx.hub.sent.map((e) => [e.event, (e.payload as { action: string }).action]);
    expect(events).toContainEqual(["contact", "delete"]);
    expect(events).toContainEqual(["contact", "update"]);
    expect(
      ctx.hub
        .named("ticket")
        .some(
          (e) =>
            (e.payload as { action: string; ticketId?: number }).action === "delete" &&
            (e.payload as { ticketId: number }).ticketId === pending.id,
        ),
    ).toBe(true);
    expect(
      ctx.hub
        .named("ticket")
        .some(
          (e) => (e.payload as { ticket?: { id: number; contact: { number: string } } }).ticket?.id === closedOld.id,
        ),
    ).toBe(true);
  });

  test("a later message carrying both the number and the LID merges them too, with no duplicate contact", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: PHONE, name: "Ana", body: "1" });
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Ana", body: "2" });
    expect(await contactRows(ctx)).toHaveLength(2);
    await say(ctx, conn.id, token, { from: PHONE, lid: LID, name: "Ana", body: "3" });
    const all = await contactRows(ctx);
    expect(all).toMatchObject([{ number: PHONE, lid: LID }]);
    const [ticket] = await ticketsOf(ctx, all[0]!.id);
    const stored = await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket!.id)).orderBy(messages.id);
    expect(stored.map((m) => m.body)).toEqual(["1", "2", "3"]);
  });

  test("an active LID ticket beside a closed phone ticket just moves over", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: PHONE, name: "Ana", body: "velho" });
    const phone = (await contactRows(ctx))[0]!;
    await ctx.db.update(tickets).set({ status: "closed" }).where(eq(tickets.contactId, phone.id));
    await say(ctx, conn.id, token, { from: `lid:${LID}`, name: "Ana", body: "novo" });
    await linkLid(ctx.deps, PHONE, LID);
    expect((await ticketsOf(ctx, phone.id)).map((t) => [t.status, t.lastMessage]).sort()).toEqual([
      ["closed", "velho"],
      ["pending", "novo"],
    ]);
  });

  test("a LID that already belongs to another number is left alone", async () => {
    const { ctx, token, conn } = await setup();
    await say(ctx, conn.id, token, { from: "5511900001111", lid: LID, name: "Bia", body: "oi" });
    await say(ctx, conn.id, token, { from: PHONE, name: "Ana", body: "oi" });
    await linkLid(ctx.deps, PHONE, LID);
    expect((await contactRows(ctx)).map((c) => [c.number, c.lid]).sort()).toEqual([
      ["5511900001111", LID],
      [PHONE, null],
    ]);
  });

  test("a message waiting for its chat while its LID contact is merged is stored in the merged contact's ticket", async () => {
    const { ctx, conn } = await setup();
    const pipeline = new InboundPipeline(ctx.deps, botActions(ctx.deps));
    const base = { isGroup: false, fromMe: false, at: ctx.clock.now(), kind: "chat" as const };
    await pipeline.handle(conn.id, { ...base, id: "L1", chatId: `lid:${LID}`, lid: LID, pushName: "Ana", body: "1" });
    const lidContact = (await contactRows(ctx))[0]!;
    await pipeline.handle(conn.id, { ...base, id: "P1", chatId: PHONE, body: "phone" });
    let release!: () => void;
    let held!: Promise<void>;
    await new Promise<void>((started) => {
      held = pipeline.runForChat(lidContact.id, conn.id, () => {
        started();
        return new Promise<void>((resolve) => (release = resolve));
      });
    });
    const waiting = pipeline.handle(conn.id, { ...base, id: "L2", chatId: `lid:${LID}`, lid: LID, body: "2" });
    await linkLid(ctx.deps, PHONE, LID);
    release();
    await held;
    await waiting;
    const [contact] = await contactRows(ctx);
    expect(contact).toMatchObject({ number: PHONE, lid: LID });
    const bodies: [string, boolean][] = [];
    for (const m of await ctx.db.select().from(messages).orderBy(messages.id))
      bodies.push([m.body, (await ticketsOf(ctx, contact!.id)).some((t) => t.id === m.ticketId)]);
    expect(bodies).toEqual([
      ["1", true],
      ["phone", true],
      ["2", true],
    ]);
  });
});
