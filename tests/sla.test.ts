// @engine each
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { one } from "../src/db/client";
import { contacts, jobs, messages, queues, ticketEvents, tickets, type TicketRow } from "../src/db/tables";
import { recordSlaBreaches, SLA_SWEEP_JOB, scheduleSlaSweep } from "../src/modules/tickets/sla-sweep";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const MINUTE = 60_000;
const CUSTOMER = "5511988887777";

async function setup(targets: { firstResponseMinutes?: number; resolutionMinutes?: number } = {}, menu = false) {
  const ctx = await makeTestApp();
  const [sales, other] = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#1e88e5", greetingMessage: "Sales here", ...targets },
      { name: "Other", color: "#43a047" },
    ])
    .returning();
  const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
  const agent = await loginAs(ctx, { queueIds: [sales!.id, other!.id], name: "Ana" });
  const conn = await createSandboxConnection(ctx, {
    greetingMessage: "Hello!",
    farewellMessage: "Bye!",
    queueIds: menu ? [sales!.id, other!.id] : [sales!.id],
  });
  return { ctx, sales: sales!, other: other!, admin, agent, conn };
}
type Env = Awaited<ReturnType<typeof setup>>;

async function customerWrites({ ctx, admin, conn }: Env, body: string, from = CUSTOMER): Promise<TicketRow> {
  const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
    token: admin.token,
    body: { from, name: "Carla", body },
  });
  expect(res.status).toBeLessThan(300);
  return (await ctx.db.select().from(tickets).orderBy(asc(tickets.id))).at(-1)!;
}

async function put({ ctx }: Env, token: string, ticketId: number, body: object) {
  const res = await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token, body });
  expect({ status: res.status, error: res.json?.error }).toEqual({ status: 200, error: undefined });
}

async function agentSends({ ctx }: Env, token: string, ticketId: number, body: object) {
  const res = await call(ctx.app, "POST", `/api/messages/${ticketId}`, { token, body });
  expect({ status: res.status, error: res.json?.error }).toEqual({ status: 200, error: undefined });
}

const eventsOf = async (ctx: TestContext, ticketId: number, kind: TicketRow["status"] | string) =>
  await ctx.db
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.kind, kind as "created")))
    .orderBy(asc(ticketEvents.id));

/** A ticket waiting since now for its first response, in a new queue with `targets`. */
async function waitingTicket(ctx: TestContext, targets: { firstResponseMinutes?: number; resolutionMinutes?: number }) {
  const queue = await one(
    ctx.db
      .insert(queues)
      .values({ name: "Q", color: "#123456", ...targets })
      .returning(),
  );
  const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
  const since = new Date(ctx.clock.now());
  return await one(
    ctx.db
      .insert(tickets)
      .values({
        contactId: contact.id,
        queueId: queue.id,
        status: "pending",
        waitingSince: since,
        episodeStartedAt: since,
      })
      .returning(),
  );
}

const ticketDto = async (ctx: TestContext, token: string, id: number) =>
  (await call(ctx.app, "GET", `/api/tickets/${id}`, { token })).json;

describe("who typed a message", () => {
  test("messages an agent typed in the panel (text and files) carry the agent; the chatbot menu, greetings, farewells, the customer's messages and private notes do not", async () => {
    const env = await setup({}, true);
    const { ctx, agent } = env;
    const ticket = await customerWrites(env, "Hi");
    await customerWrites(env, "1");
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Hello Carla" });
    await agentSends(env, agent.token, ticket.id, { body: "a note for the team", isPrivate: true });
    const form = new FormData();
    form.append("medias", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2])], "a.png", { type: "image/png" }));
    const media = await ctx.app.handle(
      new Request(`http://localhost/api/messages/${ticket.id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${agent.token}` },
        body: form,
      }),
    );
    expect(media.status).toBe(200);
    await put(env, agent.token, ticket.id, { status: "closed" });

    const rows = await ctx.db.select().from(messages).orderBy(asc(messages.id));
    const author = (m: (typeof rows)[number]) =>
      m.isPrivate ? "note" : !m.fromMe ? "customer" : m.mediaUrl ? "file" : m.body.replace(/\s+/g, " ");
    expect(rows.map((m) => [author(m), m.userId])).toEqual([
      ["customer", null],
      ["\u200eHello! *1* - Sales *2* - Other", null],
      ["customer", null],
      ["\u200eSales here", null],
      ["Hello Carla", agent.user.id],
      ["note", null],
      ["file", agent.user.id],
      ["\u200eBye!", null],
    ]);
  });
});

describe("first response", () => {
  test("the first message an agent types after the customer's first records first_response once, credited to the agent, with the milliseconds waited since that first message", async () => {
    const env = await setup();
    const { ctx, agent } = env;
    const start = ctx.clock.now();
    const ticket = await customerWrites(env, "Hi");
    ctx.clock.advance(90_000);
    await customerWrites(env, "Anyone there?");
    expect((await one(ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id)))).waitingSince).toEqual(
      new Date(start),
    );
    ctx.clock.advance(30_000);
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Here!" });
    ctx.clock.advance(60_000);
    await customerWrites(env, "Thanks");
    ctx.clock.advance(60_000);
    await agentSends(env, agent.token, ticket.id, { body: "You're welcome" });

    const recorded = await eventsOf(ctx, ticket.id, "first_response");
    expect(recorded).toEqual([
      expect.objectContaining({
        cause: "agent",
        actorUserId: agent.user.id,
        value: 120_000,
        at: new Date(start + 120_000),
      }),
    ]);
    expect((await ticketDto(ctx, agent.token, ticket.id)).waitingSince).toBeNull();
  });

  test("the greeting, the chatbot and private notes do not answer the customer: the wait goes on and no first_response is recorded", async () => {
    const env = await setup();
    const { ctx, agent } = env;
    const start = ctx.clock.now();
    const ticket = await customerWrites(env, "Hi");
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "checking their order", isPrivate: true });
    expect(await eventsOf(ctx, ticket.id, "first_response")).toEqual([]);
    expect((await ticketDto(ctx, agent.token, ticket.id)).waitingSince).toBe(new Date(start).toISOString());
  });

  test("an agent writing before the customer does is no response; the customer's next message starts the clock", async () => {
    const env = await setup();
    const { ctx, agent, sales } = env;
    const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
    const ticket = await one(
      ctx.db
        .insert(tickets)
        .values({
          contactId: contact.id,
          whatsappId: env.conn.id,
          queueId: sales.id,
          status: "open",
          userId: agent.user.id,
        })
        .returning(),
    );
    await agentSends(env, agent.token, ticket.id, { body: "Hello Rui, about your order" });
    expect(await eventsOf(ctx, ticket.id, "first_response")).toEqual([]);
    ctx.clock.advance(MINUTE);
    expect((await customerWrites(env, "Which one?", "5511955554444")).id).toBe(ticket.id);
    ctx.clock.advance(2 * MINUTE);
    await agentSends(env, agent.token, ticket.id, { body: "The blue one" });
    expect((await eventsOf(ctx, ticket.id, "first_response")).map((e) => e.value)).toEqual([2 * MINUTE]);
  });

  test("a reopened ticket starts a new episode: its first response is recorded again, measured from the reopening message; resolved events carry the episode's length", async () => {
    const env = await setup();
    const { ctx, agent } = env;
    const created = ctx.clock.now();
    const ticket = await customerWrites(env, "Hi");
    await put(env, agent.token, ticket.id, { status: "open" });
    ctx.clock.advance(MINUTE);
    await agentSends(env, agent.token, ticket.id, { body: "Hello" });
    ctx.clock.advance(9 * MINUTE);
    await put(env, agent.token, ticket.id, { status: "closed" });

    ctx.clock.advance(5 * MINUTE);
    const reopenedAt = ctx.clock.now();
    const again = await customerWrites(env, "One more thing");
    expect(again.id).toBe(ticket.id);
    ctx.clock.advance(3 * MINUTE);
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Sure" });
    await agentSends(env, agent.token, ticket.id, { body: "Anything else?" });
    ctx.clock.advance(2 * MINUTE);
    await put(env, agent.token, ticket.id, { status: "closed" });

    expect((await eventsOf(ctx, ticket.id, "first_response")).map((e) => [e.value, e.actorUserId])).toEqual([
      [MINUTE, agent.user.id],
      [3 * MINUTE, agent.user.id],
    ]);
    expect((await eventsOf(ctx, ticket.id, "resolved")).map((e) => [e.value, e.at.getTime()])).toEqual([
      [10 * MINUTE, created + 10 * MINUTE],
      [5 * MINUTE, reopenedAt + 5 * MINUTE],
    ]);
  });
});

describe("SLA targets", () => {
  test("a ticket carries its due times from its queue's targets: the first response from the customer's first message, the resolution from the episode's start", async () => {
    const env = await setup({ firstResponseMinutes: 10, resolutionMinutes: 60 });
    const { ctx, agent } = env;
    const created = ctx.clock.now();
    const ticket = await customerWrites(env, "Hi");
    ctx.clock.advance(MINUTE);
    await customerWrites(env, "Hello?");
    expect(await ticketDto(ctx, agent.token, ticket.id)).toMatchObject({
      waitingSince: new Date(created).toISOString(),
      sla: {
        firstResponseDueAt: new Date(created + 10 * MINUTE).toISOString(),
        resolutionDueAt: new Date(created + 60 * MINUTE).toISOString(),
        breached: false,
      },
    });
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Hello" });
    expect((await ticketDto(ctx, agent.token, ticket.id)).sla).toEqual({
      firstResponseDueAt: null,
      resolutionDueAt: new Date(created + 60 * MINUTE).toISOString(),
      breached: false,
      breachedTargets: [],
    });
    await put(env, agent.token, ticket.id, { queueId: env.other.id, userId: agent.user.id });
    expect((await ticketDto(ctx, agent.token, ticket.id)).sla).toEqual({
      firstResponseDueAt: null,
      resolutionDueAt: null,
      breached: false,
      breachedTargets: [],
    });
  });

  test("POST and PUT /queue take the targets (0 = off, whole minutes)", async () => {
    const env = await setup();
    const { ctx, admin } = env;
    const created = await call(ctx.app, "POST", "/api/queue", {
      token: admin.token,
      body: { name: "Billing", color: "#aa00aa", firstResponseMinutes: 15, resolutionMinutes: 240 },
    });
    expect(created.json).toMatchObject({ firstResponseMinutes: 15, resolutionMinutes: 240 });
    const changed = await call(ctx.app, "PUT", `/api/queue/${created.json.id}`, {
      token: admin.token,
      body: { firstResponseMinutes: 0 },
    });
    expect(changed.json).toMatchObject({ firstResponseMinutes: 0, resolutionMinutes: 240 });
    const bad = await call(ctx.app, "PUT", `/api/queue/${created.json.id}`, {
      token: admin.token,
      body: { resolutionMinutes: -1 },
    });
    expect(bad.status).toBe(400);
  });
});

describe("SLA breaches", () => {
  test("a ticket past its first-response target is marked breached once, with an sla_breached event, a ticket update and a notice to the admins; queues without targets never breach", async () => {
    const env = await setup({ firstResponseMinutes: 10, resolutionMinutes: 60 });
    const { ctx, agent, admin } = env;
    const ticket = await customerWrites(env, "Hi");
    const untargeted = await one(
      ctx.db
        .insert(tickets)
        .values({
          contactId: ticket.contactId,
          queueId: env.other.id,
          status: "pending",
          waitingSince: new Date(ctx.clock.now() - 24 * 60 * MINUTE),
          createdAt: new Date(ctx.clock.now() - 24 * 60 * MINUTE),
        })
        .returning(),
    );
    ctx.clock.advance(10 * MINUTE - 1);
    expect(await recordSlaBreaches(ctx.deps)).toBe(0);
    ctx.clock.advance(1);
    ctx.hub.clear();
    expect(await recordSlaBreaches(ctx.deps)).toBe(1);
    expect(await recordSlaBreaches(ctx.deps)).toBe(0);

    expect(await eventsOf(ctx, ticket.id, "sla_breached")).toEqual([
      expect.objectContaining({ cause: "sla_first_response", actorUserId: null, at: new Date(ctx.clock.now()) }),
    ]);
    expect(await eventsOf(ctx, untargeted.id, "sla_breached")).toEqual([]);
    const notices = ctx.hub.named("slaBreach");
    expect(notices.map((n) => [n.room, n.payload.target, n.payload.ticket.id])).toEqual([
      ["admins", "first_response", ticket.id],
    ]);
    expect(
      ctx.hub.named("ticket").some((e) => e.payload.ticket?.id === ticket.id && e.payload.ticket.sla.breached),
    ).toBe(true);
    expect((await ticketDto(ctx, admin.token, ticket.id)).sla.breached).toBe(true);

    // The answer comes late; the resolution target passes too, once.
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Sorry for the wait" });
    ctx.clock.advance(50 * MINUTE);
    expect(await recordSlaBreaches(ctx.deps)).toBe(1);
    ctx.clock.advance(50 * MINUTE);
    expect(await recordSlaBreaches(ctx.deps)).toBe(0);
    expect((await eventsOf(ctx, ticket.id, "sla_breached")).map((e) => e.cause)).toEqual([
      "sla_first_response",
      "sla_resolution",
    ]);
    expect((await ticketDto(ctx, admin.token, ticket.id)).sla.breachedTargets).toEqual([
      "first_response",
      "resolution",
    ]);
  });

  test("the list's slaBreached filter gives the unresolved tickets past a target (the admins' bell after a reload)", async () => {
    const env = await setup({ firstResponseMinutes: 10 });
    const { ctx, agent, admin } = env;
    const late = await customerWrites(env, "Hi");
    ctx.clock.advance(11 * MINUTE);
    await recordSlaBreaches(ctx.deps);
    const breachedIds = async () =>
      (
        await call(ctx.app, "GET", "/api/tickets?slaBreached=true&showAll=true", { token: admin.token })
      ).json.tickets.map((t: { id: number; sla: { breachedTargets: string[] } }) => [t.id, t.sla.breachedTargets]);
    expect(await breachedIds()).toEqual([[late.id, ["first_response"]]]);
    await put(env, agent.token, late.id, { status: "open" });
    await put(env, agent.token, late.id, { status: "closed" });
    expect(await breachedIds()).toEqual([]);
  });

  test("a reopened ticket may breach again in its new episode; an answered or resolved one does not", async () => {
    const env = await setup({ firstResponseMinutes: 10 });
    const { ctx, agent } = env;
    const ticket = await customerWrites(env, "Hi");
    ctx.clock.advance(11 * MINUTE);
    expect(await recordSlaBreaches(ctx.deps)).toBe(1);
    await put(env, agent.token, ticket.id, { status: "open" });
    await put(env, agent.token, ticket.id, { status: "closed" });
    ctx.clock.advance(MINUTE);
    await customerWrites(env, "Still there?");
    expect((await ticketDto(ctx, agent.token, ticket.id)).sla.breached).toBe(false);
    ctx.clock.advance(5 * MINUTE);
    await put(env, agent.token, ticket.id, { status: "open" });
    await agentSends(env, agent.token, ticket.id, { body: "Yes" });
    ctx.clock.advance(20 * MINUTE);
    expect(await recordSlaBreaches(ctx.deps)).toBe(0);
    await customerWrites(env, "Great");
    await put(env, agent.token, ticket.id, { status: "closed" });
    ctx.clock.advance(20 * MINUTE);
    expect(await recordSlaBreaches(ctx.deps)).toBe(0);
    expect(await eventsOf(ctx, ticket.id, "sla_breached")).toHaveLength(1);
  });

  test("the sweep's turns pass while no ticket is past a target, and the first turn after one passed marks it, for either target", async () => {
    const ctx = await makeTestApp();
    await scheduleSlaSweep(ctx.deps);
    const ticket = await waitingTicket(ctx, { firstResponseMinutes: 5, resolutionMinutes: 60 });
    const sweep = async (ms: number) => {
      ctx.clock.advance(ms);
      await ctx.deps.jobs.tick();
      return (await eventsOf(ctx, ticket.id, "sla_breached")).map((e) => e.cause);
    };
    expect(await sweep(4 * MINUTE)).toEqual([]);
    const [job] = await ctx.db.select().from(jobs).where(eq(jobs.kind, SLA_SWEEP_JOB));
    expect(job).toMatchObject({ status: "pending", runAt: ctx.clock.now() + 30_000 });
    expect(await sweep(2 * MINUTE)).toEqual(["sla_first_response"]);
    expect(await sweep(30 * MINUTE)).toEqual(["sla_first_response"]);
    expect(await sweep(30 * MINUTE)).toEqual(["sla_first_response", "sla_resolution"]);
  });

  test("the sweep is a job kept in the database: after a restart the server's runner finds the breach", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-sla-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const before = await makeTestApp(paths);
    await scheduleSlaSweep(before.deps);
    const ticket = await waitingTicket(before, { firstResponseMinutes: 5 });
    await before.deps.jobs.stop();

    const after = await makeTestApp(paths);
    after.clock.t = before.clock.now() + 6 * MINUTE;
    await scheduleSlaSweep(after.deps);
    expect(await after.db.select().from(jobs).where(eq(jobs.kind, SLA_SWEEP_JOB))).toHaveLength(1);
    await after.deps.jobs.tick();
    expect(await eventsOf(after, ticket.id, "sla_breached")).toEqual([
      expect.objectContaining({ cause: "sla_first_response" }),
    ]);
    expect(after.hub.named("slaBreach")).toHaveLength(1);
  });
});
