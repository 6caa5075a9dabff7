// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { execute, one } from "../src/db/client";
import { contacts, settings, ticketEvents, tickets, type TicketRow } from "../src/db/tables";
import { closeStaleTickets } from "../src/modules/tickets/auto-close";
import { kindOfChange, type TicketState } from "../src/modules/tickets/history";
import { getSetting } from "../src/modules/settings/service";
import { call, createSandboxConnection, makeTestApp, salesAndSupport, type TestContext } from "./helpers";
import { testsOnPostgres } from "./test-engine";

async function setup() {
  const ctx = await makeTestApp();
  const { sales, support, admin, agent } = await salesAndSupport(ctx);
  const conn = await createSandboxConnection(ctx, {
    greetingMessage: "Hello, choose:",
    isDefault: true,
    queueIds: [sales.id, support.id],
  });
  return { ctx, sales, support, admin, agent, conn };
}

const inbound = (ctx: TestContext, token: string, whatsappId: number, from: string, body: string) =>
  call(ctx.app, "POST", `/api/sandbox/${whatsappId}/inbound`, { token, body: { from, name: "Carla", body } });

const historyOf = async (ctx: TestContext, ticketId: number) =>
  await ctx.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.ticketId, ticketId))
    .orderBy(asc(ticketEvents.at), asc(ticketEvents.id));

const allEvents = async (ctx: TestContext) => await ctx.db.select().from(ticketEvents);

async function put(ctx: TestContext, token: string, ticketId: number, body: object) {
  const res = await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token, body });
  expect({ status: res.status, json: res.json?.error }).toEqual({ status: 200, json: undefined });
}

const contactTicket = async (ctx: TestContext, values: Partial<TicketRow>) => {
  const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
  return await one(
    ctx.db
      .insert(tickets)
      .values({ status: "pending", ...values, contactId: contact.id })
      .returning(),
  );
};

/** The setup with a ticket the agent held in Sales and resolved. */
async function resolvedByAgent() {
  const env = await setup();
  const { ctx, agent, conn, sales } = env;
  const ticket = await contactTicket(ctx, {
    queueId: sales.id,
    whatsappId: conn.id,
    status: "open",
    userId: agent.user.id,
  });
  await put(ctx, agent.token, ticket.id, { status: "closed" });
  return { ...env, ticket };
}

describe("what the history records", () => {
  test("a new contact's first message records its ticket's creation by the customer; choosing a queue in the menu records the move by the chatbot", async () => {
    const { ctx, admin, conn, sales } = await setup();
    await inbound(ctx, admin.token, conn.id, "5511988887777", "Hi");
    const ticket = (await ctx.db.select().from(tickets))[0]!;
    expect(await historyOf(ctx, ticket.id)).toEqual([
      expect.objectContaining({
        kind: "created",
        cause: "customer",
        actorUserId: null,
        at: ticket.createdAt,
        fromStatus: null,
        toStatus: "pending",
        toUserId: null,
        toQueueId: null,
        toWhatsappId: conn.id,
      }),
    ]);

    ctx.clock.advance(1000);
    await inbound(ctx, admin.token, conn.id, "5511988887777", "1");
    expect((await historyOf(ctx, ticket.id)).slice(1)).toEqual([
      expect.objectContaining({
        kind: "transferred",
        cause: "chatbot",
        actorUserId: null,
        fromQueueId: null,
        toQueueId: sales.id,
        fromStatus: "pending",
        toStatus: "pending",
      }),
    ]);
  });

  test("a customer's text on a ticket that stays as it was records nothing", async () => {
    const { ctx, admin, agent, conn } = await setup();
    await inbound(ctx, admin.token, conn.id, "5511988887777", "Hi");
    await inbound(ctx, admin.token, conn.id, "5511988887777", "1");
    const ticket = (await ctx.db.select().from(tickets))[0]!;
    await put(ctx, agent.token, ticket.id, { status: "open", userId: agent.user.id });
    const before = (await allEvents(ctx)).length;
    await inbound(ctx, admin.token, conn.id, "5511988887777", "One more thing");
    expect(await allEvents(ctx)).toHaveLength(before);
  });

  test("accept, transfer, return, resolve and reopen each record their kind, who acted and where the ticket stood before and after", async () => {
    const { ctx, admin, agent, conn, sales, support } = await setup();
    const ticket = await contactTicket(ctx, { queueId: sales.id, whatsappId: conn.id });
    const step = async (token: string, body: object) => {
      ctx.clock.advance(60_000);
      await put(ctx, token, ticket.id, body);
    };
    await step(agent.token, { status: "open", userId: agent.user.id });
    await step(admin.token, { queueId: support.id, userId: admin.user.id });
    await step(admin.token, { status: "pending", userId: null });
    await step(admin.token, { status: "open", userId: admin.user.id });
    await step(admin.token, { status: "closed" });
    await step(admin.token, { status: "open", userId: admin.user.id });

    const events = await historyOf(ctx, ticket.id);
    const state = (e: (typeof events)[number]) => [
      e.kind,
      e.cause,
      e.actorUserId,
      [e.fromStatus, e.fromUserId, e.fromQueueId],
      [e.toStatus, e.toUserId, e.toQueueId],
    ];
    const [ana, ada] = [agent.user.id, admin.user.id];
    expect(events.map(state)).toEqual([
      ["accepted", "agent", ana, ["pending", null, sales.id], ["open", ana, sales.id]],
      ["transferred", "agent", ada, ["open", ana, sales.id], ["open", ada, support.id]],
      ["transferred", "agent", ada, ["open", ada, support.id], ["pending", null, support.id]],
      ["accepted", "agent", ada, ["pending", null, support.id], ["open", ada, support.id]],
      ["resolved", "agent", ada, ["open", ada, support.id], ["closed", ada, support.id]],
      ["reopened", "agent", ada, ["closed", ada, support.id], ["open", ada, support.id]],
    ]);
    // Each at the instant of its change, which is the ticket's new time.
    expect(events.map((e) => e.at.getTime())).toEqual(events.map((_, i) => events[0]!.at.getTime() + i * 60_000));
    expect((await one(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id)))).updatedAt).toEqual(
      events.at(-1)!.at,
    );
  });

  test("a change that changes nothing (accepting a ticket already one's own) records nothing", async () => {
    const { ctx, agent, conn, sales } = await setup();
    const ticket = await contactTicket(ctx, { queueId: sales.id, whatsappId: conn.id });
    await put(ctx, agent.token, ticket.id, { status: "open", userId: agent.user.id });
    await put(ctx, agent.token, ticket.id, { status: "open", userId: agent.user.id });
    expect((await historyOf(ctx, ticket.id)).map((e) => e.kind)).toEqual(["accepted"]);
  });

  test("auto-close records the ticket resolved automatically, with no one acting", async () => {
    const { ctx, agent, conn, sales } = await setup();
    const ticket = await contactTicket(ctx, {
      queueId: sales.id,
      whatsappId: conn.id,
      status: "open",
      userId: agent.user.id,
      updatedAt: new Date(ctx.clock.now() - 3 * 3600_000),
    });
    expect(await closeStaleTickets(ctx.deps, 2)).toEqual([ticket.id]);
    expect(await historyOf(ctx, ticket.id)).toEqual([
      expect.objectContaining({
        kind: "resolved",
        cause: "auto_close",
        actorUserId: null,
        fromUserId: agent.user.id,
        toStatus: "closed",
      }),
    ]);
  });

  test("the customer writing on a recently closed ticket reopens it: the history says the customer did", async () => {
    const { ctx, admin, agent, conn, ticket } = await resolvedByAgent();
    ctx.clock.advance(60_000);
    await inbound(ctx, admin.token, conn.id, "5511955554444", "Me again");
    expect((await historyOf(ctx, ticket.id)).map((e) => [e.kind, e.cause, e.actorUserId, e.toStatus])).toEqual([
      ["resolved", "agent", agent.user.id, "closed"],
      ["reopened", "customer", null, "pending"],
    ]);
  });

  test("past the reopen window the customer's message creates a new ticket, whose history starts with its creation", async () => {
    const { ctx, admin, conn, ticket: old } = await resolvedByAgent();
    await ctx.db.update(settings).set({ value: "60" }).where(eq(settings.key, "timeCreateNewTicket"));
    expect(await getSetting(ctx.db, "timeCreateNewTicket")).toBe("60");
    ctx.clock.advance(61_000);
    await inbound(ctx, admin.token, conn.id, "5511955554444", "Hello again");
    const fresh = (await ctx.db.select().from(tickets)).find((t) => t.id !== old.id)!;
    expect((await historyOf(ctx, old.id)).map((e) => e.kind)).toEqual(["resolved"]);
    expect((await historyOf(ctx, fresh.id)).map((e) => [e.kind, e.cause])).toEqual([["created", "customer"]]);
  });

  test("POST /api/tickets records the creation by the agent, with the user, queue and connection it starts with", async () => {
    const { ctx, agent, conn, sales } = await setup();
    const contact = await one(ctx.db.insert(contacts).values({ name: "Lia", number: "5511944443333" }).returning());
    const res = await call(ctx.app, "POST", "/api/tickets", {
      token: agent.token,
      body: { contactId: contact.id, status: "open", userId: agent.user.id },
    });
    expect(res.status).toBe(200);
    expect(await historyOf(ctx, res.json.id)).toEqual([
      expect.objectContaining({
        kind: "created",
        cause: "agent",
        actorUserId: agent.user.id,
        toStatus: "open",
        toUserId: agent.user.id,
        toQueueId: sales.id,
        toWhatsappId: conn.id,
      }),
    ]);
  });

  test("the external API records the ticket it creates and the close it asks for", async () => {
    const { ctx, conn } = await setup();
    const res = await call(ctx.app, "POST", "/api/messages/send", {
      token: await getSetting(ctx.db, "userApiToken"),
      body: { number: "5511933332222", body: "Your order shipped", whatsappId: conn.id, closeTicket: true },
    });
    expect(res.status).toBe(200);
    expect((await historyOf(ctx, res.json.ticketId)).map((e) => [e.kind, e.cause, e.actorUserId])).toEqual([
      ["created", "api", null],
      ["resolved", "api", null],
    ]);
  });

  test("deleting a queue records the move of each of its tickets, closed ones too, by the admin", async () => {
    const { ctx, admin, conn, sales, support } = await setup();
    const waiting = await contactTicket(ctx, { queueId: sales.id, whatsappId: conn.id });
    const closed = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: waiting.contactId, status: "closed", queueId: sales.id, whatsappId: conn.id })
        .returning(),
    );
    const res = await call(ctx.app, "DELETE", `/api/queue/${sales.id}?moveTo=${support.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    for (const ticket of [waiting, closed])
      expect(await historyOf(ctx, ticket.id)).toEqual([
        expect.objectContaining({
          kind: "transferred",
          cause: "queue_deleted",
          actorUserId: admin.user.id,
          fromQueueId: sales.id,
          toQueueId: support.id,
          fromStatus: ticket.status,
          toStatus: ticket.status,
        }),
      ]);
    // The open chats hear of the tickets that are in lists; closed ones moved silently, as their lists do.
    expect(ctx.hub.named("ticketEvent").map((e) => e.room)).toEqual([`ticket:${waiting.id}`]);
  });

  test("a message sent on a ticket whose connection is gone records the connection it goes out on", async () => {
    const { ctx, admin, conn } = await setup();
    const ticket = await contactTicket(ctx, { status: "open", userId: admin.user.id, whatsappId: null });
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token: admin.token, body: { body: "Hi" } });
    expect(res.status).toBe(200);
    expect(await historyOf(ctx, ticket.id)).toEqual([
      expect.objectContaining({ kind: "transferred", cause: "system", fromWhatsappId: null, toWhatsappId: conn.id }),
    ]);
  });
});

describe("a failed change records nothing", () => {
  test("a reopen refused while the contact has another active ticket leaves no event", async () => {
    const { ctx, admin, conn, sales } = await setup();
    const closed = await contactTicket(ctx, { queueId: sales.id, whatsappId: conn.id, status: "closed" });
    await ctx.db.insert(tickets).values({ contactId: closed.contactId, status: "pending", whatsappId: conn.id });
    const res = await call(ctx.app, "PUT", `/api/tickets/${closed.id}`, {
      token: admin.token,
      body: { status: "open", userId: admin.user.id },
    });
    expect(res.json.error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(await allEvents(ctx)).toEqual([]);
  });

  test("when the history cannot be written, the change it belongs to is not written either", async () => {
    const { ctx, agent, conn, sales } = await setup();
    const ticket = await contactTicket(ctx, { queueId: sales.id, whatsappId: conn.id });
    const other = await one(ctx.db.insert(contacts).values({ name: "Lia", number: "5511944443333" }).returning());
    await refuseEvents(ctx, true);
    try {
      const res = await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
        token: agent.token,
        body: { status: "open", userId: agent.user.id },
      });
      expect(res.status).toBe(500);
      const created = await call(ctx.app, "POST", "/api/tickets", {
        token: agent.token,
        body: { contactId: other.id, status: "open", userId: agent.user.id },
      });
      expect(created.status).toBe(500);
    } finally {
      await refuseEvents(ctx, false);
    }
    expect(await one(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id)))).toMatchObject({
      status: "pending",
      userId: null,
      updatedAt: ticket.updatedAt,
    });
    expect(await ctx.db.select().from(tickets)).toHaveLength(1);
    expect(await allEvents(ctx)).toEqual([]);
  });
});

/** Makes every insert into the history fail (a trigger), or stops doing so. */
async function refuseEvents(ctx: TestContext, refuse: boolean) {
  const statements = testsOnPostgres
    ? refuse
      ? [
          "create function refuse_ticket_event() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$",
          "create trigger refuse_ticket_event before insert on ticket_events for each row execute function refuse_ticket_event()",
        ]
      : ["drop trigger refuse_ticket_event on ticket_events", "drop function refuse_ticket_event()"]
    : refuse
      ? ["create trigger refuse_ticket_event before insert on ticket_events begin select raise(abort, 'refused'); end"]
      : ["drop trigger refuse_ticket_event"];
  for (const statement of statements) await execute(ctx.db, sql.raw(statement));
}

describe("kinds of change", () => {
  const at = (status: TicketState["status"], userId: number | null, queueId: number | null = 1): TicketState => ({
    status,
    userId,
    queueId,
    whatsappId: 1,
  });
  test("opening a waiting ticket is an accept by its new user, an assignment with no one acting, else a transfer", () => {
    expect(kindOfChange(at("pending", null), at("open", 7), 7)).toBe("accepted");
    expect(kindOfChange(at("pending", null), at("open", 7), null)).toBe("assigned");
    expect(kindOfChange(at("pending", null), at("open", 8), 7)).toBe("transferred");
    expect(kindOfChange(at("pending", null), at("open", 7, 2), 7)).toBe("transferred");
  });

  test("leaving closed is a reopen, entering it a resolve, nothing changed is no event", () => {
    expect(kindOfChange(at("closed", 7), at("pending", null), null)).toBe("reopened");
    expect(kindOfChange(at("open", 7), at("closed", 7), null)).toBe("resolved");
    expect(kindOfChange(at("open", 7), at("open", 7), 7)).toBeUndefined();
    expect(kindOfChange(at("closed", 7), at("closed", 7, 2), 7)).toBe("transferred");
  });
});
