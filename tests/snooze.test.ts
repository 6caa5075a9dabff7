// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { JobRunner } from "../src/jobs/runner";
import { jobs, queues, ticketEvents, tickets } from "../src/db/tables";
import { handleWakeJobs } from "../src/modules/tickets/snooze";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const PHONE = "5511988887777";
const HOUR = 3600_000;

/** A customer's ticket the agent holds in Sales. */
async function setup() {
  const ctx = await makeTestApp();
  const [sales] = await ctx.db
    .insert(queues)
    .values([{ name: "Sales", color: "#1e88e5" }])
    .returning();
  const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
  const agent = await loginAs(ctx, { queueIds: [sales!.id], name: "Ana" });
  const other = await loginAs(ctx, { queueIds: [sales!.id], name: "Otto" });
  const conn = await createSandboxConnection(ctx, { isDefault: true, queueIds: [sales!.id] });
  await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
    token: admin.token,
    body: { from: PHONE, name: "Carla", body: "Hi" },
  });
  const ticket = (await ctx.db.select().from(tickets))[0]!;
  const taken = await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
    token: agent.token,
    body: { status: "open", userId: agent.user.id },
  });
  expect(taken.status).toBe(200);
  return { ctx, admin, agent, other, conn, ticket };
}

type Env = Awaited<ReturnType<typeof setup>>;

const iso = (ctx: TestContext, inMs: number) => new Date(ctx.clock.now() + inMs).toISOString();

const snooze = (env: Env, token: string, until: unknown) =>
  call(env.ctx.app, "POST", `/api/tickets/${env.ticket.id}/snooze`, { token, body: { until } });

const listIds = async (env: Env, token: string, query: string) =>
  (await call(env.ctx.app, "GET", `/api/tickets?${query}`, { token })).json.tickets.map((t: { id: number }) => t.id);

const historyOf = async (ctx: TestContext, ticketId: number) =>
  (
    await ctx.db
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, ticketId))
      .orderBy(asc(ticketEvents.at), asc(ticketEvents.id))
  ).map((e) => [e.kind, e.cause, e.actorUserId, e.value]);

const snoozedUntil = async (env: Env) =>
  (await env.ctx.db.select().from(tickets).where(eq(tickets.id, env.ticket.id)))[0]!.snoozedUntil;

describe("snoozing a ticket", () => {
  test("only the assignee or an admin may snooze; a time not in the future or not a date is refused on `until`", async () => {
    const env = await setup();
    expect((await snooze(env, env.other.token, iso(env.ctx, HOUR))).json).toEqual({ error: "ERR_NO_PERMISSION" });
    for (const until of [iso(env.ctx, -1000), iso(env.ctx, 0), "tomorrow", "2026-13-45T99:00:00Z"]) {
      const res = await snooze(env, env.agent.token, until);
      expect([res.status, res.json.error, res.json.field]).toEqual([400, "VALIDATION", "until"]);
    }
    expect(await snoozedUntil(env)).toBeNull();
    expect((await snooze(env, env.admin.token, iso(env.ctx, HOUR))).status).toBe(200);
    const res = await snooze(env, env.agent.token, iso(env.ctx, 2 * HOUR));
    expect([res.status, res.json.snoozedUntil]).toEqual([200, iso(env.ctx, 2 * HOUR)]);
  });

  test("a snoozed ticket leaves the In service and Waiting lists and shows under the Snoozed filter only", async () => {
    const env = await setup();
    const { agent, ticket } = env;
    expect(await listIds(env, agent.token, "status=open")).toEqual([ticket.id]);
    await snooze(env, agent.token, iso(env.ctx, HOUR));
    expect(await listIds(env, agent.token, "status=open")).toEqual([]);
    expect(await listIds(env, agent.token, "")).toEqual([]);
    expect(await listIds(env, env.admin.token, "showAll=true")).toEqual([]);
    expect(await listIds(env, agent.token, "status=open&snoozed=true")).toEqual([ticket.id]);
    expect(await listIds(env, agent.token, "snoozed=true")).toEqual([ticket.id]);
    expect(await historyOf(env.ctx, ticket.id)).toContainEqual(["snoozed", "agent", agent.user.id, null]);
  });

  test("snoozing again replaces the wake-up: one job per ticket, due at the new time", async () => {
    const env = await setup();
    await snooze(env, env.agent.token, iso(env.ctx, HOUR));
    await snooze(env, env.agent.token, iso(env.ctx, 3 * HOUR));
    const wakeJobs = await env.ctx.db.select().from(jobs).where(eq(jobs.kind, "ticket-wake"));
    expect(wakeJobs.map((j) => [j.key, j.runAt, j.status])).toEqual([
      [`snooze:${env.ticket.id}`, env.ctx.clock.now() + 3 * HOUR, "pending"],
    ]);
  });
});

describe("resolving a snoozed ticket", () => {
  test("ends its snooze: it shows among the resolved tickets and its wake-up job goes", async () => {
    const env = await setup();
    await snooze(env, env.agent.token, iso(env.ctx, HOUR));
    const res = await call(env.ctx.app, "PUT", `/api/tickets/${env.ticket.id}`, {
      token: env.agent.token,
      body: { status: "closed" },
    });
    expect([res.status, res.json.snoozedUntil]).toEqual([200, null]);
    expect(await listIds(env, env.agent.token, "status=closed")).toEqual([env.ticket.id]);
    expect(await env.ctx.db.select().from(jobs).where(eq(jobs.kind, "ticket-wake"))).toEqual([]);
  });
});

describe("waking a snoozed ticket", () => {
  test("its time comes: the job wakes it, also on a runner started after a restart, records `woken` by the system and tells its agent", async () => {
    const env = await setup();
    const { ctx, agent, ticket } = env;
    await snooze(env, agent.token, iso(ctx, HOUR));
    ctx.clock.advance(HOUR - 1000);
    await ctx.deps.jobs.tick();
    expect(await snoozedUntil(env)).not.toBeNull();

    ctx.clock.advance(1000);
    // A runner that did not schedule the job, as after a restart.
    const restarted = new JobRunner(ctx.deps);
    handleWakeJobs({ ...ctx.deps, jobs: restarted });
    await restarted.tick();
    expect(await snoozedUntil(env)).toBeNull();
    expect((await historyOf(ctx, ticket.id)).slice(-2)).toEqual([
      ["snoozed", "agent", agent.user.id, null],
      ["woken", "system", null, null],
    ]);
    expect(ctx.hub.named("ticketWoken").map((e) => [e.room, e.payload.ticket.id])).toEqual([
      [`user:${agent.user.id}`, ticket.id],
    ]);
    expect(await listIds(env, agent.token, "status=open")).toEqual([ticket.id]);
  });

  test("the customer writing wakes it at once, recorded as `woken` by the customer, and its wake-up job goes", async () => {
    const env = await setup();
    const { ctx, agent, ticket } = env;
    await snooze(env, agent.token, iso(ctx, 5 * HOUR));
    ctx.clock.advance(HOUR);
    await call(ctx.app, "POST", `/api/sandbox/${env.conn.id}/inbound`, {
      token: env.admin.token,
      body: { from: PHONE, name: "Carla", body: "Any news?" },
    });
    expect(await snoozedUntil(env)).toBeNull();
    expect((await historyOf(ctx, ticket.id)).at(-1)).toEqual(["woken", "customer", null, null]);
    expect(ctx.hub.named("ticketWoken").map((e) => e.room)).toEqual([`user:${agent.user.id}`]);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.kind, "ticket-wake"))).toEqual([]);
    expect(await listIds(env, agent.token, "status=open")).toEqual([ticket.id]);
  });

  test("DELETE /tickets/:id/snooze brings it back early for its assignee or an admin, recorded as `woken` by them", async () => {
    const env = await setup();
    const { ctx, agent, ticket } = env;
    await snooze(env, agent.token, iso(ctx, HOUR));
    const refused = await call(ctx.app, "DELETE", `/api/tickets/${ticket.id}/snooze`, { token: env.other.token });
    expect(refused.status).toBe(403);
    const res = await call(ctx.app, "DELETE", `/api/tickets/${ticket.id}/snooze`, { token: agent.token });
    expect([res.status, res.json.snoozedUntil]).toEqual([200, null]);
    expect((await historyOf(ctx, ticket.id)).at(-1)).toEqual(["woken", "agent", agent.user.id, null]);
    expect(ctx.hub.named("ticketWoken")).toEqual([]);
    ctx.clock.advance(2 * HOUR);
    await ctx.deps.jobs.tick();
    expect((await historyOf(ctx, ticket.id)).filter(([kind]) => kind === "woken")).toHaveLength(1);
  });
});
