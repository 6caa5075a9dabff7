// @engine each
import { one, first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  chatbots,
  contactExtraInfo,
  contacts,
  messages,
  queues,
  tags,
  ticketDialogs,
  ticketTags,
  tickets,
  connections,
  type TicketRow,
} from "../src/db/tables";
import type { ReadRef } from "../src/channels/types";
import { botActions } from "../src/modules/inbound/actions";
import { LRM } from "../src/modules/messages/placeholders";
import { loadTicketDto, toTicketDtos } from "../src/modules/tickets/serialize";
import { markTicketRead } from "../src/modules/tickets/read-marking";
import { applyTicketChanges } from "../src/modules/tickets/service";
import { loadAuthUser } from "../src/modules/users/service";
import { createSandboxConnection, createUser, makeTestApp, type TestContext } from "./helpers";

let seq = 0;
async function seedTicket(ctx: TestContext, values: Partial<TicketRow> = {}) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Caio ${++seq}`, number: `55219${String(seq).padStart(8, "0")}` })
      .returning(),
  );
  const ticket = await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "pending", ...values })
      .returning(),
  );
  return { contact, ticket };
}
const queue = async (ctx: TestContext, name: string) =>
  await one(
    ctx.db
      .insert(queues)
      .values({ name, color: `#${name}` })
      .returning(),
  );
const row = async (ctx: TestContext, id: number) =>
  (await first(ctx.db.select().from(tickets).where(eq(tickets.id, id))))!;
async function actor(ctx: TestContext, opts: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(ctx, opts);
  return (await loadAuthUser(ctx.db, user.id))!;
}

describe("ticket serialisation", () => {
  test("tickets come with contact, user, queue, connection (whether it has a call token, never the token) and tags", async () => {
    const ctx = await makeTestApp();
    const q = await queue(ctx, "Sales");
    const wa = await one(ctx.db.insert(connections).values({ name: "W", wavoip: "tok" }).returning());
    const agent = await createUser(ctx, { name: "Bia" });
    const { contact, ticket } = await seedTicket(ctx, { queueId: q.id, whatsappId: wa.id, userId: agent.id });
    const tag = await one(ctx.db.insert(tags).values({ name: "vip", color: "#f00" }).returning());
    await ctx.db.insert(ticketTags).values({ ticketId: ticket.id, tagId: tag.id });
    const other = (await seedTicket(ctx)).ticket;
    const [dto, bare] = await toTicketDtos(ctx.db, [ticket, other]);
    expect(dto).toMatchObject({
      contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: "", isGroup: false },
      user: { id: agent.id, name: "Bia" },
      queue: { id: q.id, name: "Sales", color: q.color },
      whatsapp: { id: wa.id, name: "W", hasCall: true },
      tags: [{ id: tag.id, name: "vip", color: "#f00" }],
    });
    expect(bare).toMatchObject({ user: null, queue: null, whatsapp: null, tags: [] });
    expect(dto!.whatsapp).not.toHaveProperty("wavoip");
  });

  test("loadTicketDto adds the contact's extra info and 404s an unknown id", async () => {
    const ctx = await makeTestApp();
    const { contact, ticket } = await seedTicket(ctx);
    await ctx.db.insert(contactExtraInfo).values({ contactId: contact.id, name: "cpf", value: "1" });
    expect((await loadTicketDto(ctx.db, ticket.id)).contact?.extraInfo).toEqual([
      expect.objectContaining({ name: "cpf", value: "1" }),
    ]);
    expect(async () => await loadTicketDto(ctx.db, 999)).toThrow(
      expect.objectContaining({ code: "ERR_NO_TICKET_FOUND", status: 404 }),
    );
  });
});

describe("ticket events reach the rooms", () => {
  test("a status change first deletes from the old lists, then updates the new rooms; delete goes everywhere", async () => {
    const ctx = await makeTestApp();
    const q = await queue(ctx, "A");
    const { ticket } = await seedTicket(ctx, { queueId: q.id, status: "open" });
    const dto = await loadTicketDto(ctx.db, ticket.id);
    ctx.deps.events.emit("ticket.updated", {
      ticket: dto,
      before: { id: ticket.id, status: "pending", userId: null, queueId: q.id },
    });
    expect(ctx.hub.sent.slice(0, 2).map((e) => [e.room, e.payload.action])).toEqual([
      ["status:pending", "delete"],
      [`queue:${q.id}:status:pending`, "delete"],
    ]);
    expect(ctx.hub.to("status:open", "ticket")[0]!.payload).toMatchObject({
      action: "update",
      ticket: { id: ticket.id },
    });
    ctx.hub.clear();
    ctx.deps.events.emit("ticket.updated", {
      ticket: dto,
      before: { id: ticket.id, status: "open", userId: null, queueId: q.id },
    });
    expect(ctx.hub.sent.every((e) => e.payload.action === "update")).toBe(true);
    ctx.hub.clear();
    ctx.deps.events.emit("ticket.deleted", { ticket: dto });
    expect(ctx.hub.sent.map((e) => e.room)).toContain(`ticket:${ticket.id}`);
    expect(ctx.hub.sent.every((e) => e.payload.action === "delete" && e.payload.ticketId === ticket.id)).toBe(true);
  });
});

describe("applyTicketChanges", () => {
  test("accept: open with the actor, unread reset, bot dialog cleared, isBot false", async () => {
    const ctx = await makeTestApp();
    const q = await queue(ctx, "A");
    const me = await actor(ctx, { queueIds: [q.id] });
    const { ticket } = await seedTicket(ctx, { queueId: q.id, isBot: true, unreadMessages: 3 });
    const bot = await one(ctx.db.insert(chatbots).values({ name: "opt", queueId: q.id }).returning());
    await ctx.db.insert(ticketDialogs).values({ ticketId: ticket.id, chatbotId: bot.id });
    const dto = await applyTicketChanges(ctx.deps, ticket.id, { status: "open" }, { actor: me });
    expect(dto).toMatchObject({ status: "open", userId: me.id, isBot: false, unreadMessages: 0, user: { id: me.id } });
    expect(await ctx.db.select().from(ticketDialogs)).toHaveLength(0);
    expect(ctx.hub.named("ticket").some((e) => e.payload.action === "updateUnread")).toBe(true);
  });

  test("an invalid status from an untyped caller is refused with the field and rule", async () => {
    const ctx = await makeTestApp();
    const { ticket } = await seedTicket(ctx);
    await expect(
      applyTicketChanges(ctx.deps, ticket.id, { status: "archived" as never }, { actor: null }),
    ).rejects.toMatchObject({ field: "status", rule: "invalid" });
    await expect(applyTicketChanges(ctx.deps, 999, {}, { actor: null })).rejects.toMatchObject({
      code: "ERR_NO_TICKET_FOUND",
    });
  });

  test("a queue transfer without a user goes back to pending with no user, and sends the transfer message", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const wa = await createSandboxConnection(ctx);
    await ctx.db.update(connections).set({ transferTicketMessage: "Now in {{fila}}" }).where(eq(connections.id, wa.id));
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, {
      queueId: a.id,
      status: "open",
      userId: admin.id,
      whatsappId: wa.id,
    });
    const dto = await applyTicketChanges(ctx.deps, ticket.id, { queueId: b.id }, { actor: admin });
    expect(dto).toMatchObject({ status: "pending", userId: null, queueId: b.id });
    expect((await ctx.sandbox.network.outbox(wa.id, contact.number!)).map((m) => m.body)).toEqual([`${LRM}Now in B`]);
  });

  test("close sends the farewell once (LRM, stored in history); a re-save of a closed ticket sends nothing", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx, { farewellMessage: "Tchau {{name}}" });
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { status: "open", userId: admin.id, whatsappId: wa.id });
    await applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: admin });
    await applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: admin });
    expect((await ctx.sandbox.network.outbox(wa.id, contact.number!)).map((m) => m.body)).toEqual([
      `${LRM}Tchau ${contact.name}`,
    ]);
    expect((await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).map((m) => m.body)).toEqual([
      `${LRM}Tchau ${contact.name}`,
    ]);
    expect((await row(ctx, ticket.id)).status).toBe("closed");
  });

  test("two closes at once (two tabs, two agents) close the ticket once and send one farewell", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx, { farewellMessage: "Tchau {{name}}" });
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { status: "open", userId: admin.id, whatsappId: wa.id });
    const closes = await Promise.all(
      [1, 2, 3].map(() => applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: admin })),
    );
    expect(closes.map((dto) => dto.status)).toEqual(["closed", "closed", "closed"]);
    expect(await ctx.sandbox.network.outbox(wa.id, contact.number!)).toHaveLength(1);
    expect(await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toHaveLength(1);
  });

  test("a move to another queue and a close at once: both land, neither undoes the other", async () => {
    const ctx = await makeTestApp();
    const wa = await one(ctx.db.insert(connections).values({ name: "W" }).returning());
    const admin = await actor(ctx, { profile: "admin" });
    const [q1, q2] = [await queue(ctx, "Q1"), await queue(ctx, "Q2")];
    const { ticket } = await seedTicket(ctx, { status: "open", userId: admin.id, whatsappId: wa.id, queueId: q1.id });
    await Promise.all([
      applyTicketChanges(ctx.deps, ticket.id, { queueId: q2.id, userId: admin.id }, { actor: admin }),
      applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: admin }),
    ]);
    expect(await row(ctx, ticket.id)).toMatchObject({ status: "closed", queueId: q2.id });
  });

  test("a farewell that cannot be sent never fails the close", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx, { farewellMessage: "Bye", scan: false });
    await ctx.channels.stop(wa.id);
    const admin = await actor(ctx, { profile: "admin" });
    const { ticket } = await seedTicket(ctx, { status: "open", userId: admin.id, whatsappId: wa.id });
    const dto = await applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: admin });
    expect(dto.status).toBe("closed");
  });

  test("reopen is refused while the contact has another active ticket on that connection, and allowed only to admins or the last user", async () => {
    const ctx = await makeTestApp();
    const wa = await one(ctx.db.insert(connections).values({ name: "W" }).returning());
    const owner = await actor(ctx);
    const stranger = await actor(ctx);
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { status: "closed", userId: owner.id, whatsappId: wa.id });
    await expect(
      applyTicketChanges(ctx.deps, ticket.id, { status: "open", userId: stranger.id }, { actor: stranger }),
    ).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
    const other = await one(
      ctx.db.insert(tickets).values({ contactId: contact.id, status: "pending", whatsappId: wa.id }).returning(),
    );
    await expect(
      applyTicketChanges(ctx.deps, ticket.id, { status: "open", userId: owner.id }, { actor: owner }),
    ).rejects.toMatchObject({ code: "ERR_OTHER_OPEN_TICKET" });
    await expect(applyTicketChanges(ctx.deps, ticket.id, { status: "open" }, { actor: admin })).rejects.toMatchObject({
      details: { ticketId: other.id },
    });
    await ctx.db.delete(tickets).where(eq(tickets.id, other.id));
    expect(
      (await applyTicketChanges(ctx.deps, ticket.id, { status: "open", userId: owner.id }, { actor: owner })).status,
    ).toBe("open");
  });

  test("two closed tickets of one contact reopened at once on one connection: one opens, the other is refused", async () => {
    const ctx = await makeTestApp();
    const wa = await one(ctx.db.insert(connections).values({ name: "W" }).returning());
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { status: "closed", userId: admin.id, whatsappId: wa.id });
    const older = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "closed", userId: admin.id, whatsappId: wa.id })
        .returning(),
    );
    const outcomes = await Promise.allSettled(
      [ticket.id, older.id].map((id) => applyTicketChanges(ctx.deps, id, { status: "open" }, { actor: admin })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { code: "ERR_OTHER_OPEN_TICKET" } });
    const active = await ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
    expect(active.filter((t) => t.status !== "closed")).toHaveLength(1);
  });

  test("the bot's queue choice is dropped when an agent took the ticket since the bot read it", async () => {
    const ctx = await makeTestApp();
    const wa = await one(ctx.db.insert(connections).values({ name: "W" }).returning());
    const agent = await actor(ctx);
    const q = await queue(ctx, "Vendas");
    const { ticket: asTheBotSawIt } = await seedTicket(ctx, { status: "pending", whatsappId: wa.id, isBot: true });
    await applyTicketChanges(ctx.deps, asTheBotSawIt.id, { status: "open", userId: agent.id }, { actor: agent });

    expect(await botActions(ctx.deps).change(asTheBotSawIt, { queueId: q.id, isBot: true })).toBeUndefined();
    expect(await row(ctx, asTheBotSawIt.id)).toMatchObject({ status: "open", userId: agent.id, queueId: null });
  });

  test("cross-connection transfer needs the permission and is refused when the contact is active on the target", async () => {
    const ctx = await makeTestApp();
    const w1 = await one(ctx.db.insert(connections).values({ name: "W1" }).returning());
    const w2 = await one(ctx.db.insert(connections).values({ name: "W2" }).returning());
    const agent = await actor(ctx);
    const admin = await actor(ctx, { profile: "admin" });
    const { contact, ticket } = await seedTicket(ctx, { status: "open", userId: agent.id, whatsappId: w1.id });
    await expect(
      applyTicketChanges(ctx.deps, ticket.id, { whatsappId: w2.id }, { actor: agent }),
    ).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
    await ctx.db.insert(tickets).values({ contactId: contact.id, status: "open", whatsappId: w2.id });
    await expect(
      applyTicketChanges(ctx.deps, ticket.id, { whatsappId: w2.id }, { actor: admin }),
    ).rejects.toMatchObject({ code: "ERR_OTHER_OPEN_TICKET" });
    await expect(applyTicketChanges(ctx.deps, ticket.id, { whatsappId: 999 }, { actor: admin })).rejects.toMatchObject({
      code: "ERR_NO_WAPP_FOUND",
    });
  });

  test("an agent cannot change a ticket of another queue", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const agent = await actor(ctx, { queueIds: [a.id] });
    const { ticket } = await seedTicket(ctx, { queueId: b.id });
    await expect(applyTicketChanges(ctx.deps, ticket.id, { status: "open" }, { actor: agent })).rejects.toMatchObject({
      code: "ERR_NO_PERMISSION",
    });
  });

  test("the system (actor null) leaves unread alone and must name a user to open", async () => {
    const ctx = await makeTestApp();
    const q = await queue(ctx, "A");
    const { ticket } = await seedTicket(ctx, { unreadMessages: 2 });
    const dto = await applyTicketChanges(ctx.deps, ticket.id, { queueId: q.id }, { actor: null });
    expect(dto).toMatchObject({ queueId: q.id, unreadMessages: 2, status: "pending" });
    await expect(applyTicketChanges(ctx.deps, ticket.id, { status: "open" }, { actor: null })).rejects.toMatchObject({
      field: "userId",
    });
  });
});

describe("markTicketRead", () => {
  test("zeroes unread, marks messages read, tells the lists and sends a read receipt for inbound ones, naming the chat each came in on", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { contact, ticket } = await seedTicket(ctx, { whatsappId: wa.id, unreadMessages: 2 });
    await ctx.db
      .insert(messages)
      .values({ wid: "in-1", whatsappId: wa.id, ticketId: ticket.id, contactId: contact.id, body: "x" });
    // Written from the customer's LID before they were merged into their phone contact.
    await ctx.db.insert(messages).values({
      wid: "in-lid",
      whatsappId: wa.id,
      ticketId: ticket.id,
      contactId: contact.id,
      body: "y",
      remoteJid: "123456789012345@lid",
    });
    ctx.hub.clear();
    const calls: ReadRef[][] = [];
    const channels = ctx.deps.channels;
    ctx.deps.channels = Object.assign(Object.create(channels), {
      markRead: async (_w: number, _c: string, _g: boolean, refs: ReadRef[]) => void calls.push(refs),
    });
    await markTicketRead(ctx.deps, await row(ctx, ticket.id));
    expect((await row(ctx, ticket.id)).unreadMessages).toBe(0);
    expect((await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).every((m) => m.read)).toBe(
      true,
    );
    expect(calls[0]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "in-1", remoteJid: null, participant: null }),
        expect.objectContaining({ id: "in-lid", remoteJid: "123456789012345@lid", participant: null }),
      ]),
    );
    expect(ctx.hub.to("status:pending", "ticket")[0]!.payload).toEqual({ action: "updateUnread", ticketId: ticket.id });
    expect(ctx.hub.to("notification", "ticket")).toHaveLength(1);
  });
});
