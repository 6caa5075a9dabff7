// @engine each
import { describe, expect, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import { LRM } from "../src/modules/messages/placeholders";
import { messages, ticketEvents, tickets } from "../src/db/tables";
import { closeStaleTickets } from "../src/modules/tickets/auto-close";
import { ratingOf } from "../src/modules/tickets/csat";
import { call, createSandboxConnection, makeTestApp, salesAndSupport, type TestContext } from "./helpers";

const PHONE = "5511988887777";

async function setup(csatEnabled = true) {
  const ctx = await makeTestApp();
  const { sales, support, admin, agent } = await salesAndSupport(ctx);
  const conn = await createSandboxConnection(ctx, {
    greetingMessage: "Hello, choose:",
    farewellMessage: "Bye {{name}}",
    csatEnabled,
    csatMessage: "Rate us, {{name}}: 1 to 5",
    isDefault: true,
    queueIds: [sales.id, support.id],
  });
  return { ctx, admin, agent, conn };
}

type Env = Awaited<ReturnType<typeof setup>>;

const inbound = (env: Env, body: string) =>
  call(env.ctx.app, "POST", `/api/sandbox/${env.conn.id}/inbound`, {
    token: env.admin.token,
    body: { from: PHONE, name: "Carla", body },
  });

async function put(env: Env, ticketId: number, body: object) {
  const res = await call(env.ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: env.agent.token, body });
  expect(res.status).toBe(200);
}

/** The customer wrote, the agent took the ticket and resolved it. */
async function resolvedByAgent(csatEnabled = true) {
  const env = await setup(csatEnabled);
  await inbound(env, "Hi");
  const ticket = (await env.ctx.db.select().from(tickets))[0]!;
  await put(env, ticket.id, { status: "open", userId: env.agent.user.id });
  env.ctx.clock.advance(1000);
  await put(env, ticket.id, { status: "closed" });
  env.ctx.clock.advance(1000);
  return { ...env, ticket };
}

const sentBodies = async (ctx: TestContext, ticketId: number) =>
  (
    await ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id))
  ).map((m) => ({ body: m.body.replace(LRM, ""), userId: m.userId }));

const ticketRow = async (ctx: TestContext, id: number) =>
  (await ctx.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

const ratedEvents = async (ctx: TestContext) =>
  await ctx.db.select().from(ticketEvents).where(eq(ticketEvents.kind, "rated"));

describe("the satisfaction survey", () => {
  test("an agent's resolve sends the survey after the farewell, with the customer's name, as no agent's message, and records when it was asked", async () => {
    const { ctx, ticket } = await resolvedByAgent();
    expect((await sentBodies(ctx, ticket.id)).slice(-2)).toEqual([
      { body: "Bye Carla", userId: null },
      { body: "Rate us, Carla: 1 to 5", userId: null },
    ]);
    expect((await ticketRow(ctx, ticket.id)).csatAskedAt?.getTime()).toBe(ctx.clock.now() - 1000);
  });

  test("a connection without the survey sends none, and auto-close sends none either", async () => {
    const off = await resolvedByAgent(false);
    expect((await sentBodies(off.ctx, off.ticket.id)).map((m) => m.body)).not.toContain("Rate us, Carla: 1 to 5");
    expect((await ticketRow(off.ctx, off.ticket.id)).csatAskedAt).toBeNull();

    const env = await setup();
    await inbound(env, "Hi");
    const ticket = (await env.ctx.db.select().from(tickets))[0]!;
    await put(env, ticket.id, { status: "open", userId: env.agent.user.id });
    env.ctx.clock.advance(3 * 3600_000);
    expect(await closeStaleTickets(env.ctx.deps, 2)).toEqual([ticket.id]);
    expect((await sentBodies(env.ctx, ticket.id)).map((m) => m.body)).not.toContain("Rate us, Carla: 1 to 5");
  });

  test("a new connection's survey text defaults to the creator's language, with {{name}}", async () => {
    const { ctx, admin } = await setup();
    const res = await call(ctx.app, "POST", "/api/whatsapp", {
      token: admin.token,
      body: { name: "Loja", provider: "sandbox" },
      headers: { "accept-language": "pt-BR" },
    });
    expect(res.status).toBe(200);
    expect(res.json.csatEnabled).toBe(false);
    expect(res.json.csatMessage).toStartWith("Olá {{name}}!");
  });
});

describe("answers to the survey", () => {
  test("a digit within 24 h is stored as the rating, recorded as `rated` by the customer, and neither reopens the ticket nor reaches the bot", async () => {
    const env = await resolvedByAgent();
    const { ctx, ticket } = env;
    const sentBefore = (await sentBodies(ctx, ticket.id)).length;
    ctx.clock.advance(23 * 3600_000);
    await inbound(env, " 4 ");
    const row = await ticketRow(ctx, ticket.id);
    expect(row.status).toBe("closed");
    expect(await ctx.db.select().from(tickets)).toHaveLength(1);
    expect((await sentBodies(ctx, ticket.id)).length).toBe(sentBefore);
    const stored = await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(["Hi", " 4 "]);
    expect(await ratedEvents(ctx)).toEqual([
      expect.objectContaining({ ticketId: ticket.id, cause: "customer", value: 4, actorUserId: null }),
    ]);
    const dto = await call(ctx.app, "GET", `/api/tickets/${ticket.id}`, { token: env.admin.token });
    expect(dto.json.csat).toEqual({ rating: 4, comment: null, answeredAt: new Date(ctx.clock.now()).toISOString() });
    expect(dto.json.csatRating).toBeUndefined();
  });

  test("one to five stars count as that rating, with or without the emoji variation selector", async () => {
    expect([
      ratingOf("⭐"),
      ratingOf("⭐⭐⭐"),
      ratingOf("⭐️⭐️⭐️⭐️⭐️"),
      ratingOf("⭐⭐⭐⭐⭐⭐"),
      ratingOf("6"),
    ]).toEqual([1, 3, 5, null, null]);
    const env = await resolvedByAgent();
    await inbound(env, "⭐️⭐️");
    expect((await ticketRow(env.ctx, env.ticket.id)).csatRating).toBe(2);
  });

  test("the next message within 10 minutes of the rating is its comment; a later one is an ordinary message", async () => {
    const env = await resolvedByAgent();
    const { ctx, ticket } = env;
    await inbound(env, "5");
    ctx.clock.advance(9 * 60_000);
    await inbound(env, "Ana was great");
    let row = await ticketRow(ctx, ticket.id);
    expect([row.status, row.csatRating, row.csatComment]).toEqual(["closed", 5, "Ana was great"]);
    expect(await ratedEvents(ctx)).toHaveLength(1);

    await inbound(env, "One more question");
    row = await ticketRow(ctx, ticket.id);
    expect([row.status, row.csatComment]).toEqual(["pending", "Ana was great"]);
    expect((await sentBodies(ctx, ticket.id)).at(-1)?.body).toStartWith("Hello, choose:");
  });

  test("an answer after 24 h, or any other text, is an ordinary message: the ticket reopens and the bot answers", async () => {
    const late = await resolvedByAgent();
    late.ctx.clock.advance(24 * 3600_000 + 1000);
    await inbound(late, "5");
    // Oldest first: PostgreSQL hands rows back in no fixed order once the resolved one has been updated.
    const lateRows = await late.ctx.db.select().from(tickets).orderBy(asc(tickets.id));
    expect(lateRows.map((t) => [t.status, t.csatRating])).toEqual([
      ["closed", null],
      ["pending", null],
    ]);
    expect(await ratedEvents(late.ctx)).toEqual([]);

    const other = await resolvedByAgent();
    await inbound(other, "I still have a problem");
    const row = await ticketRow(other.ctx, other.ticket.id);
    expect([row.status, row.csatRating]).toEqual(["pending", null]);
    expect((await sentBodies(other.ctx, other.ticket.id)).at(-1)?.body).toStartWith("Hello, choose:");
    // The survey of a reopened ticket is no longer answered.
    await inbound(other, "3");
    expect((await ticketRow(other.ctx, other.ticket.id)).csatRating).toBeNull();
  });
});
