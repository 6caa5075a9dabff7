// @engine each
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { one } from "../src/db/client";
import { connections, contacts, queues, tickets, users } from "../src/db/tables";
import { recordTicketEvents, type TicketChange } from "../src/modules/tickets/history";
import {
  call,
  createSandboxConnection,
  createUser,
  loginAs,
  makeTestApp,
  salesAndSupport,
  sqliteOnly,
  type TestContext,
} from "./helpers";
import { traceSqlite } from "./statement-trace";

async function setup() {
  const ctx = await makeTestApp();
  const { sales, support, admin, agent } = await salesAndSupport(ctx);
  const conn = await createSandboxConnection(ctx, { name: "Shop phone", isDefault: true });
  const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
  const ticket = await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "pending", queueId: sales.id, whatsappId: conn.id })
      .returning(),
  );
  return { ctx, sales, support, admin, agent, conn, ticket };
}

const eventsOf = (ctx: TestContext, token: string, ticketId: number, query = "") =>
  call(ctx.app, "GET", `/api/tickets/${ticketId}/events${query}`, { token });

/** `n` transfers of the ticket recorded straight into its history, one minute apart from `start`, shuffled. */
async function seedEvents(ctx: TestContext, ticketId: number, n: number, start: number) {
  const state = { status: "open" as const, userId: null, queueId: null, whatsappId: null };
  const changes: TicketChange[] = Array.from({ length: n }, (_, i) => ({
    ticketId,
    kind: "transferred",
    cause: "system",
    at: new Date(start + i * 60_000),
    actorUserId: null,
    before: state,
    after: state,
  }));
  await recordTicketEvents(ctx.db, changes.reverse());
}

describe("GET /api/tickets/:id/events", () => {
  test("lists the ticket's history oldest first, naming who acted and the users, queues and connection on each side", async () => {
    const { ctx, admin, agent, ticket, sales, support, conn } = await setup();
    ctx.clock.advance(60_000);
    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token: agent.token,
      body: { status: "open", userId: agent.user.id },
    });
    ctx.clock.advance(60_000);
    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token: admin.token,
      body: { queueId: support.id, userId: admin.user.id },
    });
    const res = await eventsOf(ctx, admin.token, ticket.id);
    expect(res.status).toBe(200);
    const ana = { id: agent.user.id, name: "Ana" };
    const ada = { id: admin.user.id, name: "Ada" };
    const shop = { id: conn.id, name: "Shop phone" };
    expect(res.json).toEqual({
      count: 2,
      hasMore: false,
      events: [
        {
          id: expect.any(Number),
          ticketId: ticket.id,
          kind: "accepted",
          cause: "agent",
          at: new Date(ctx.clock.now() - 60_000).toISOString(),
          actor: ana,
          from: { status: "pending", user: null, queue: { id: sales.id, name: "Sales" }, connection: shop },
          to: { status: "open", user: ana, queue: { id: sales.id, name: "Sales" }, connection: shop },
          value: null,
        },
        {
          id: expect.any(Number),
          ticketId: ticket.id,
          kind: "transferred",
          cause: "agent",
          at: new Date(ctx.clock.now()).toISOString(),
          actor: ada,
          from: { status: "open", user: ana, queue: { id: sales.id, name: "Sales" }, connection: shop },
          to: { status: "open", user: ada, queue: { id: support.id, name: "Support" }, connection: shop },
          value: null,
        },
      ],
    });
  });

  test("a user or queue deleted since keeps its id in the history, without a name", async () => {
    const { ctx, admin, ticket, sales, support } = await setup();
    const gone = await createUser(ctx, { name: "Gil", queueIds: [sales.id] });
    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token: admin.token,
      body: { status: "open", userId: gone.id },
    });
    await call(ctx.app, "DELETE", `/api/queue/${sales.id}?moveTo=${support.id}`, { token: admin.token });
    await ctx.db.delete(users).where(eq(users.id, gone.id));
    const [transfer, move] = (await eventsOf(ctx, admin.token, ticket.id)).json.events;
    expect(transfer.to.user).toEqual({ id: gone.id, name: null });
    expect(move.from.queue).toEqual({ id: sales.id, name: null });
    expect(move.to.queue).toEqual({ id: support.id, name: "Support" });
  });

  test("follows the access rule of GET /api/tickets/:id: another queue's agent is refused, an unknown ticket is not found", async () => {
    const { ctx, agent, admin, ticket, support } = await setup();
    const other = await loginAs(ctx, { queueIds: [support.id] });
    for (const path of [`/api/tickets/${ticket.id}`, `/api/tickets/${ticket.id}/events`]) {
      expect((await call(ctx.app, "GET", path, { token: agent.token })).status).toBe(200);
      expect(await call(ctx.app, "GET", path, { token: other.token })).toMatchObject({
        status: 403,
        json: { error: "ERR_NO_PERMISSION" },
      });
    }
    expect(await eventsOf(ctx, admin.token, 999_999)).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TICKET_FOUND" },
    });
    expect((await call(ctx.app, "GET", `/api/tickets/${ticket.id}/events`)).status).toBe(401);
  });

  test("pages of 20, oldest first, with count and hasMore; from and to narrow it to a span", async () => {
    const { ctx, admin, ticket } = await setup();
    const start = Date.UTC(2025, 0, 1, 12);
    await seedEvents(ctx, ticket.id, 25, start);
    const times = (res: { json: { events: { at: string }[] } }) => res.json.events.map((e) => Date.parse(e.at));
    const minutes = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => start + (from + i) * 60_000);

    const first = await eventsOf(ctx, admin.token, ticket.id);
    expect(first.json).toMatchObject({ count: 25, hasMore: true });
    expect(times(first)).toEqual(minutes(0, 20));
    const second = await eventsOf(ctx, admin.token, ticket.id, "?pageNumber=2");
    expect(second.json).toMatchObject({ count: 25, hasMore: false });
    expect(times(second)).toEqual(minutes(20, 25));

    const iso = (minute: number) => new Date(start + minute * 60_000).toISOString();
    const span = await eventsOf(ctx, admin.token, ticket.id, `?from=${iso(3)}&to=${iso(7)}`);
    expect(span.json).toMatchObject({ count: 4, hasMore: false });
    expect(times(span)).toEqual(minutes(3, 7));
    expect(times(await eventsOf(ctx, admin.token, ticket.id, `?from=${iso(23)}`))).toEqual(minutes(23, 25));
    expect(times(await eventsOf(ctx, admin.token, ticket.id, `?to=${iso(2)}`))).toEqual(minutes(0, 2));
  });

  test("a bad span answers 400 VALIDATION with its field, a bad page 400", async () => {
    const { ctx, admin, ticket } = await setup();
    for (const [query, field] of [
      ["?from=yesterday", "from"],
      ["?to=1800-01-01T00:00:00Z", "to"],
    ] as const) {
      const res = await eventsOf(ctx, admin.token, ticket.id, query);
      expect({ query, status: res.status, error: res.json.error, field: res.json.field }).toEqual({
        query,
        status: 400,
        error: "VALIDATION",
        field,
      });
    }
    expect((await eventsOf(ctx, admin.token, ticket.id, "?pageNumber=0")).status).toBe(400);
  });

  sqliteOnly(
    "names are read in one query each for users, queues and connections, however many events a page holds",
    async () => {
      const { ctx, admin, ticket } = await setup();
      const many = await ctx.db
        .insert(queues)
        .values(Array.from({ length: 10 }, (_, i) => ({ name: `Q${i}`, color: `#00000${i}` })))
        .returning();
      const wa = await ctx.db
        .insert(connections)
        .values(Array.from({ length: 10 }, (_, i) => ({ name: `W${i}` })))
        .returning();
      await recordTicketEvents(
        ctx.db,
        many.map((queue, i) => ({
          ticketId: ticket.id,
          kind: "transferred",
          cause: "agent",
          at: new Date(ctx.clock.now() + i),
          actorUserId: admin.user.id,
          before: { status: "open", userId: admin.user.id, queueId: many[(i + 1) % 10]!.id, whatsappId: wa[i]!.id },
          after: { status: "open", userId: i, queueId: queue.id, whatsappId: wa[(i + 1) % 10]!.id },
        })),
      );
      const trace = traceSqlite(ctx.db);
      const count = await trace.measure(() => eventsOf(ctx, admin.token, ticket.id));
      const reads = count.log.filter((s) => /\bfrom "(users|queues|connections)"/.test(s));
      expect(reads).toHaveLength(3);
    },
  );
});

describe("the ticketEvent socket event", () => {
  test("a recorded change reaches the ticket's chat room, and only it, with the names", async () => {
    const { ctx, agent, ticket, sales } = await setup();
    ctx.hub.clear();
    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token: agent.token,
      body: { status: "open", userId: agent.user.id },
    });
    const sent = ctx.hub.named("ticketEvent");
    expect(sent.map((s) => s.room)).toEqual([`ticket:${ticket.id}`]);
    expect(sent[0]!.payload).toMatchObject({
      action: "create",
      event: {
        ticketId: ticket.id,
        kind: "accepted",
        actor: { id: agent.user.id, name: "Ana" },
        to: { status: "open", user: { id: agent.user.id, name: "Ana" }, queue: { id: sales.id, name: "Sales" } },
      },
    });
    // What the API answers, the socket said.
    const [listed] = (await eventsOf(ctx, agent.token, ticket.id)).json.events;
    expect(JSON.parse(JSON.stringify(sent[0]!.payload))).toEqual({ action: "create", event: listed });
  });

  test("a ticket's creation is not announced (no chat of it can be open yet), its reopen by the customer is", async () => {
    const { ctx, admin, conn } = await setup();
    ctx.hub.clear();
    const from = "5511988887777";
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, { token: admin.token, body: { from, body: "Hi" } });
    expect(ctx.hub.named("ticketEvent")).toEqual([]);
    const created = (await ctx.db.select().from(tickets)).find((t) => t.status === "pending" && t.queueId == null)!;
    await call(ctx.app, "PUT", `/api/tickets/${created.id}`, { token: admin.token, body: { status: "closed" } });
    ctx.hub.clear();
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token: admin.token,
      body: { from, body: "Again" },
    });
    expect(ctx.hub.named("ticketEvent").map((s) => [s.room, s.payload.event.kind, s.payload.event.cause])).toEqual([
      [`ticket:${created.id}`, "reopened", "customer"],
    ]);
  });
});
