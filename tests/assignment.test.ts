// @engine each
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { one } from "../src/db/client";
import { contacts, ticketEvents, tickets, users } from "../src/db/tables";
import { assignWaiting } from "../src/modules/tickets/assignment";
import { assignmentsSettled } from "../src/modules/tickets/assignment-triggers";
import { getSetting } from "../src/modules/settings/service";
import type { QueueAssignment } from "../src/shared/contracts/queues";
import { call, createSandboxConnection, createUser, loginAs, makeTestApp, type TestContext } from "./helpers";
import { testsOnPostgres } from "./test-engine";

type Availability = "online" | "away" | "offline";

/** An app with an admin, one queue with `assignment` and `cap`, its agents (online unless said) and a connection to it. */
async function setup(
  assignment: QueueAssignment,
  cap: number,
  availabilities: Availability[] = ["online", "online", "online"],
  ctx?: TestContext,
) {
  ctx ??= await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const queue = (
    await call(ctx.app, "POST", "/api/queue", {
      token: admin.token,
      body: { name: "Support", color: "#123456", assignment, maxOpenPerAgent: cap },
    })
  ).json;
  const agents: number[] = [];
  for (const availability of availabilities) {
    const { id } = await createUser(ctx, { queueIds: [queue.id] });
    await ctx.db.update(users).set({ availability }).where(eq(users.id, id));
    agents.push(id);
  }
  const connection = await createSandboxConnection(ctx, { queueIds: [queue.id], isDefault: true });
  let customers = 0;
  /** A new customer writes: on a connection with one queue, their ticket lands in it. */
  const customerWrites = async (from = `55119${String(++customers).padStart(8, "0")}`, body = "Hello") => {
    const res = await call(ctx.app, "POST", `/api/sandbox/${connection.id}/inbound`, {
      token: admin.token,
      body: { from, body },
    });
    expect(res.status).toBe(200);
    return from;
  };
  return { ctx, admin: admin.token, queue, agents, connection, customerWrites };
}

/** The queue's tickets in the order they were created, with their status and agent. */
async function ticketsOf(ctx: TestContext) {
  return await ctx.db
    .select({ id: tickets.id, status: tickets.status, userId: tickets.userId })
    .from(tickets)
    .orderBy(asc(tickets.id));
}

async function assignedEvents(ctx: TestContext) {
  return await ctx.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.kind, "assigned"))
    .orderBy(asc(ticketEvents.id));
}

async function setAvailability(ctx: TestContext, token: string, userId: number, availability: Availability) {
  const res = await call(ctx.app, "PUT", `/api/users/${userId}/availability`, { token, body: { availability } });
  expect(res.status).toBe(200);
  await assignmentsSettled(ctx.deps);
}

describe("queue fields", () => {
  test("a queue is manual without a cap unless told; POST and PUT take the rule and the cap", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const created = await call(ctx.app, "POST", "/api/queue", { token, body: { name: "Sales", color: "#111111" } });
    expect(created.json).toMatchObject({ assignment: "manual", maxOpenPerAgent: 0 });
    const changed = await call(ctx.app, "PUT", `/api/queue/${created.json.id}`, {
      token,
      body: { assignment: "least_busy", maxOpenPerAgent: 3 },
    });
    expect(changed).toMatchObject({ status: 200, json: { assignment: "least_busy", maxOpenPerAgent: 3 } });
    const listed = await call(ctx.app, "GET", "/api/queue", { token });
    expect(listed.json[0]).toMatchObject({ assignment: "least_busy", maxOpenPerAgent: 3 });
  });

  test("an unknown rule or a cap that is not a whole number from 0 is refused with 400 VALIDATION naming the field", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const post = (body: object) =>
      call(ctx.app, "POST", "/api/queue", { token, body: { name: "Sales", color: "#111111", ...body } });
    expect(await post({ assignment: "fifo" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "assignment" },
    });
    for (const maxOpenPerAgent of [-1, 1.5, null])
      expect(await post({ maxOpenPerAgent })).toMatchObject({
        status: 400,
        json: { error: "VALIDATION", field: "maxOpenPerAgent" },
      });
    const { json: queue } = await post({});
    expect(
      await call(ctx.app, "PUT", `/api/queue/${queue.id}`, { token, body: { assignment: "random" } }),
    ).toMatchObject({ status: 400, json: { error: "VALIDATION", field: "assignment" } });
  });
});

describe("round-robin", () => {
  test("tickets go to the online members in turn, each up to the cap; past it they wait", async () => {
    const { ctx, agents, customerWrites } = await setup("round_robin", 2);
    for (let i = 0; i < 7; i++) await customerWrites();
    const all = await ticketsOf(ctx);
    const [a, b, c] = agents;
    expect(all.map((t) => t.userId)).toEqual([a, b, c, a, b, c, null]);
    expect(all.map((t) => t.status)).toEqual(["open", "open", "open", "open", "open", "open", "pending"]);
  });

  test("closing a ticket does not move the turn: the next ones go on from where it stood", async () => {
    const { ctx, admin, agents, customerWrites } = await setup("round_robin", 0);
    const [a, b, c] = agents;
    await customerWrites();
    await customerWrites();
    const first = (await ticketsOf(ctx))[0]!;
    await call(ctx.app, "PUT", `/api/tickets/${first.id}`, { token: admin, body: { status: "closed" } });
    await customerWrites();
    await customerWrites();
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([a, b, c, a]);
  });

  test("the turn is kept in the database: after a restart the next ticket goes to the member whose turn it is", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-assignment-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const { queue, agents, customerWrites } = await setup("round_robin", 0, undefined, await makeTestApp(paths));
    await customerWrites();
    await customerWrites();
    const after = await makeTestApp(paths);
    const contact = await one(after.db.insert(contacts).values({ name: "Bia", number: "5511955554444" }).returning());
    await after.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "pending", queueId: queue.id, isBot: false });
    expect(await assignWaiting(after.deps, queue.id)).toBe(1);
    expect((await ticketsOf(after)).map((t) => t.userId)).toEqual([agents[0], agents[1], agents[2]]);
  });

  test("the assignment is in the ticket's history with its rule, and the agent's own room hears the ticket open", async () => {
    const { ctx, admin, agents, customerWrites } = await setup("round_robin", 0);
    await customerWrites();
    const [ticket] = await ticketsOf(ctx);
    const events = await call(ctx.app, "GET", `/api/tickets/${ticket!.id}/events`, { token: admin });
    const assigned = events.json.events.find((e: { kind: string }) => e.kind === "assigned");
    expect(assigned).toMatchObject({
      cause: "round_robin",
      actor: null,
      from: { status: "pending", user: null },
      to: { status: "open", user: { id: agents[0] }, queue: { name: "Support" } },
    });
    const heard = ctx.hub
      .to(`user:${agents[0]}`, "ticket")
      .map((f) => f.payload as { ticket?: { id: number; status: string; userId: number } });
    expect(heard.some((p) => p.ticket?.id === ticket!.id && p.ticket.status === "open")).toBe(true);
  });
});

describe("least-busy", () => {
  test("a ticket goes to the member with the fewest open tickets in the queue; among equals, to the one given a ticket longest ago", async () => {
    const { ctx, agents, customerWrites } = await setup("least_busy", 0, ["offline", "offline", "online"]);
    const [a, b, c] = agents;
    // c takes three while alone; then a and b come.
    for (let i = 0; i < 3; i++) await customerWrites();
    await ctx.db
      .update(users)
      .set({ availability: "online" })
      .where(inArray(users.id, [a!, b!]));
    for (let i = 0; i < 4; i++) await customerWrites();
    // a (0 open), b (0), then a and b have one each and were given theirs after c's: c's turn is the oldest.
    expect((await ticketsOf(ctx)).slice(3).map((t) => t.userId)).toEqual([a, b, a, b]);
    for (let i = 0; i < 3; i++) await customerWrites();
    // a and b at 2, then at 3 like c, whose last ticket is the oldest: c.
    expect((await ticketsOf(ctx)).slice(7).map((t) => t.userId)).toEqual([a, b, c]);
    const causes = (await assignedEvents(ctx)).map((e) => e.cause);
    expect(new Set(causes)).toEqual(new Set(["least_busy"]));
  });
});

describe("who qualifies", () => {
  test("an away or offline member is never given a ticket", async () => {
    const { ctx, customerWrites, agents } = await setup("round_robin", 0, ["away", "offline", "online"]);
    for (let i = 0; i < 3; i++) await customerWrites();
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([agents[2], agents[2], agents[2]]);
  });

  test("with nobody qualifying tickets wait, and go oldest first to a member who comes online", async () => {
    const { ctx, admin, customerWrites, agents } = await setup("round_robin", 1, ["away", "offline"]);
    for (let i = 0; i < 3; i++) await customerWrites();
    expect((await ticketsOf(ctx)).map((t) => t.status)).toEqual(["pending", "pending", "pending"]);
    await setAvailability(ctx, admin, agents[1]!, "online");
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([agents[1], null, null]);
  });

  test("a snoozed waiting ticket is left alone until it wakes, then given to a member", async () => {
    const { ctx, admin, customerWrites, agents } = await setup("round_robin", 0, ["offline"]);
    await customerWrites();
    const [ticket] = await ticketsOf(ctx);
    const until = new Date(ctx.clock.now() + 3_600_000).toISOString();
    const snoozed = await call(ctx.app, "POST", `/api/tickets/${ticket!.id}/snooze`, { token: admin, body: { until } });
    expect(snoozed.status).toBe(200);
    await setAvailability(ctx, admin, agents[0]!, "online");
    expect((await ticketsOf(ctx)).map((t) => t.status)).toEqual(["pending"]);
    await call(ctx.app, "DELETE", `/api/tickets/${ticket!.id}/snooze`, { token: admin });
    await assignmentsSettled(ctx.deps);
    expect((await ticketsOf(ctx)).map((t) => [t.status, t.userId])).toEqual([["open", agents[0]]]);
  });

  test("a member at the cap who closes a ticket is given the oldest waiting one", async () => {
    const { ctx, admin, customerWrites, agents } = await setup("round_robin", 1, ["online"]);
    for (let i = 0; i < 3; i++) await customerWrites();
    const [first] = await ticketsOf(ctx);
    await call(ctx.app, "PUT", `/api/tickets/${first!.id}`, { token: admin, body: { status: "closed" } });
    expect((await ticketsOf(ctx)).map((t) => [t.status, t.userId])).toEqual([
      ["closed", agents[0]],
      ["open", agents[0]],
      ["pending", null],
    ]);
  });

  test("a member added to the queue is given the waiting tickets up to the cap", async () => {
    const { ctx, admin, queue, customerWrites } = await setup("round_robin", 2, []);
    for (let i = 0; i < 3; i++) await customerWrites();
    const { id: newcomer } = await createUser(ctx);
    await ctx.db.update(users).set({ availability: "online" }).where(eq(users.id, newcomer));
    const res = await call(ctx.app, "PUT", `/api/users/${newcomer}`, { token: admin, body: { queueIds: [queue.id] } });
    expect(res.status).toBe(200);
    await assignmentsSettled(ctx.deps);
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([newcomer, newcomer, null]);
  });

  test("a manual queue turned round-robin, or given a higher cap, hands out what waits", async () => {
    const { ctx, admin, queue, customerWrites, agents } = await setup("manual", 0, ["online"]);
    await customerWrites();
    await customerWrites();
    expect((await ticketsOf(ctx)).map((t) => t.status)).toEqual(["pending", "pending"]);
    await call(ctx.app, "PUT", `/api/queue/${queue.id}`, {
      token: admin,
      body: { assignment: "round_robin", maxOpenPerAgent: 1 },
    });
    await assignmentsSettled(ctx.deps);
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([agents[0], null]);
    await call(ctx.app, "PUT", `/api/queue/${queue.id}`, { token: admin, body: { maxOpenPerAgent: 2 } });
    await assignmentsSettled(ctx.deps);
    expect((await ticketsOf(ctx)).map((t) => t.userId)).toEqual([agents[0], agents[0]]);
  });
});

describe("where tickets land", () => {
  test("a ticket transferred to the queue only is given to a member; one transferred to a manual queue waits", async () => {
    const { ctx, admin, queue, agents } = await setup("round_robin", 0, ["online"]);
    const manual = (
      await call(ctx.app, "POST", "/api/queue", { token: admin, body: { name: "Manual", color: "#654321" } })
    ).json;
    const contact = await one(ctx.db.insert(contacts).values({ name: "Ana", number: "5511912345678" }).returning());
    const created = await call(ctx.app, "POST", "/api/tickets", {
      token: admin,
      body: { contactId: contact.id, status: "pending", queueId: manual.id },
    });
    expect(created.json).toMatchObject({ status: "pending", userId: null });
    const moved = await call(ctx.app, "PUT", `/api/tickets/${created.json.id}`, {
      token: admin,
      body: { queueId: queue.id },
    });
    expect(moved.json).toMatchObject({ status: "open", userId: agents[0], queueId: queue.id });
  });

  test("a ticket the menu or a transfer puts in the queue is announced once, open with its agent, with both history events", async () => {
    const { ctx, admin, queue, agents, customerWrites } = await setup("round_robin", 0, ["online"]);
    const heard: string[] = [];
    ctx.deps.events.subscribe(({ name, payload }) => {
      if (name === "ticket.event") heard.push(`event ${payload.event.kind}`);
      if (name === "ticket.updated" && payload.ticket.queueId === queue.id)
        heard.push(`ticket ${payload.ticket.status} ${payload.ticket.userId} from ${payload.before?.status}`);
    });
    await customerWrites();
    const [ticket] = await ticketsOf(ctx);
    const once = [`ticket open ${agents[0]} from pending`, "event transferred", "event assigned"];
    expect(heard.filter((h) => h !== "event created")).toEqual(once);
    expect(
      (await call(ctx.app, "PUT", `/api/tickets/${ticket!.id}`, { token: admin, body: { queueId: null } })).status,
    ).toBe(200);
    heard.length = 0;
    const moved = await call(ctx.app, "PUT", `/api/tickets/${ticket!.id}`, {
      token: admin,
      body: { queueId: queue.id },
    });
    expect(moved.json).toMatchObject({ status: "open", userId: agents[0], queueId: queue.id });
    expect(heard).toEqual(once);
  });

  test("with chatbot options, the ticket waits for the chatbot to hand it over, then goes to a member", async () => {
    const { ctx, admin, queue, agents, customerWrites } = await setup("round_robin", 0, ["online"]);
    await call(ctx.app, "PUT", `/api/queue/${queue.id}`, {
      token: admin,
      body: { chatbots: [{ name: "Billing", greetingMessage: "An agent will talk to you" }] },
    });
    const from = await customerWrites();
    expect((await ticketsOf(ctx)).map((t) => [t.status, t.userId])).toEqual([["pending", null]]);
    // Option 1 answered: its greeting ends the dialogue, and the ticket goes to a member.
    await customerWrites(from, "1");
    expect((await ticketsOf(ctx)).map((t) => [t.status, t.userId])).toEqual([["open", agents[0]]]);
    expect((await assignedEvents(ctx)).map((e) => e.cause)).toEqual(["round_robin"]);
  });

  test("a customer writing again within the reopen window reopens the ticket in its queue, and a member gets it", async () => {
    const { ctx, admin, agents, customerWrites } = await setup("round_robin", 0, ["online", "online"]);
    const from = await customerWrites();
    const [ticket] = await ticketsOf(ctx);
    await call(ctx.app, "PUT", `/api/tickets/${ticket!.id}`, { token: admin, body: { status: "closed" } });
    await customerWrites(from);
    expect((await ticketsOf(ctx)).map((t) => [t.id, t.status, t.userId])).toEqual([[ticket!.id, "open", agents[1]]]);
  });

  test("a message sent through the external API reopens a resolved ticket in its queue, and a member gets it", async () => {
    const { ctx, admin, agents, customerWrites } = await setup("round_robin", 0, ["online", "online"]);
    const from = await customerWrites();
    const [ticket] = await ticketsOf(ctx);
    await call(ctx.app, "PUT", `/api/tickets/${ticket!.id}`, { token: admin, body: { status: "closed" } });
    const token = await getSetting(ctx.db, "userApiToken");
    const sent = await call(ctx.app, "POST", "/api/messages/send", {
      token,
      body: { number: from, body: "Any news?" },
    });
    expect(sent.json.ticketId).toBe(ticket!.id);
    await assignmentsSettled(ctx.deps);
    expect((await ticketsOf(ctx)).map((t) => [t.id, t.status, t.userId])).toEqual([[ticket!.id, "open", agents[1]]]);
    expect((await assignedEvents(ctx)).map((e) => e.ticketId)).toEqual([ticket!.id, ticket!.id]);
  });
});

describe("tickets arriving at once", () => {
  test("20 customers writing at once: no member past the cap, no ticket given twice", async () => {
    const { ctx, agents, customerWrites } = await setup("round_robin", 5);
    const openings: number[] = [];
    const assignments: number[] = [];
    ctx.deps.events.subscribe(({ name, payload }) => {
      if (name === "ticket.updated" && payload.ticket.status === "open") openings.push(payload.ticket.id);
      if (name === "ticket.event" && payload.event.kind === "assigned") assignments.push(payload.event.ticketId);
    });
    await Promise.all(Array.from({ length: 20 }, () => customerWrites()));
    const all = await ticketsOf(ctx);
    expect(all).toHaveLength(20);
    for (const agent of agents) expect(all.filter((t) => t.userId === agent)).toHaveLength(5);
    expect(all.filter((t) => t.status === "pending")).toHaveLength(5);
    const events = await assignedEvents(ctx);
    expect(events).toHaveLength(15);
    expect(new Set(events.map((e) => e.ticketId)).size).toBe(15);
    // Each given ticket is announced open once, with its assignment once, whichever arrival's pass gave it.
    const given = events.map((e) => e.ticketId).sort();
    expect(openings.sort()).toEqual(given);
    expect(assignments.sort()).toEqual(given);
  });
});

describe.skipIf(!testsOnPostgres)("two nodes on one PostgreSQL database", () => {
  test("both handing out the same queue's waiting tickets at once never give one twice nor pass the cap", async () => {
    const databasePath = "/tmp/zapdesk-assignment-nodes.sqlite";
    const one = await makeTestApp({ databasePath });
    const two = await makeTestApp({ databasePath });
    const { ctx, queue, agents, customerWrites } = await setup(
      "round_robin",
      4,
      ["offline", "offline", "offline"],
      one,
    );
    for (let i = 0; i < 16; i++) await customerWrites();
    await ctx.db.update(users).set({ availability: "online" }).where(inArray(users.id, agents));
    await Promise.all([
      assignWaiting(one.deps, queue.id),
      assignWaiting(two.deps, queue.id),
      assignWaiting(one.deps, queue.id),
      assignWaiting(two.deps, queue.id),
    ]);
    const all = await ticketsOf(two);
    for (const agent of agents) expect(all.filter((t) => t.userId === agent)).toHaveLength(4);
    const events = await assignedEvents(two);
    expect(events).toHaveLength(12);
    expect(new Set(events.map((e) => e.ticketId)).size).toBe(12);
    const waiting = await two.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.status, "pending"), eq(tickets.queueId, queue.id)));
    expect(waiting).toHaveLength(4);
  });
});
