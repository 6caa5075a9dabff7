// @engine each
import { describe, expect, test } from "bun:test";
import { one } from "../src/db/client";
import { contacts, messages, queues, tickets } from "../src/db/tables";
import { recordTicketEvents, type TicketChange } from "../src/modules/tickets/history";
import { parseCsv } from "../src/shared/csv";
import type { ReportedKind } from "../src/modules/tickets/report-events";
import {
  BASE,
  call,
  createSandboxConnection,
  islandProps,
  loginAs,
  makeTestApp,
  salesAndSupport,
  type TestContext,
} from "./helpers";

const Z = (iso: string) => new Date(`${iso}Z`);
/** Monday 2 and Tuesday 3 March 2026 in São Paulo (UTC−3): [03:00Z on the 2nd, 03:00Z on the 4th). */
const SPAN = "from=2026-03-02T03:00:00.000Z&to=2026-03-04T03:00:00.000Z";

/**
 * Three conversations with known times, in a São Paulo installation: Ana answers and resolves ticket 1 (Sales)
 * and ticket 3 (Support, which she opened herself); Bia answers and resolves ticket 2 (Sales, created at 23:30
 * local time on Monday, already Tuesday in UTC), which the customer reopens and which breaches its SLA. Ratings
 * 5 and 4; Ana types 4 messages in the span (and a private note), Bia 2; events just outside the span are left out.
 */
async function setup() {
  const ctx = await makeTestApp({ timeZone: "America/Sao_Paulo" });
  const { sales, support, admin, agent: ana } = await salesAndSupport(ctx);
  const bia = await loginAs(ctx, { name: "Bia", queueIds: [sales.id] });
  const conn = await createSandboxConnection(ctx, { name: "Shop", isDefault: true });
  const ticket = async (queueId: number, n: number) => {
    const contact = await one(
      ctx.db
        .insert(contacts)
        .values({ name: `C${n}`, number: `551190000000${n}` })
        .returning(),
    );
    return await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "closed", queueId, whatsappId: conn.id })
        .returning(),
    );
  };
  const [t1, t2, t3, t4] = [
    await ticket(sales.id, 1),
    await ticket(sales.id, 2),
    await ticket(support.id, 3),
    await ticket(sales.id, 4),
  ];
  const a = ana.user.id;
  const b = bia.user.id;
  const event = (
    ticketId: number,
    kind: ReportedKind,
    at: string,
    o: { actor?: number; to?: number | null; queue: number; value?: number },
  ): TicketChange => ({
    ticketId,
    kind,
    cause: o.actor ? "agent" : "customer",
    at: Z(at),
    actorUserId: o.actor ?? null,
    before: null,
    after: { status: "open", userId: o.to ?? null, queueId: o.queue, whatsappId: conn.id },
    value: o.value ?? null,
  });
  const s = sales.id;
  const p = support.id;
  await recordTicketEvents(ctx.db, [
    event(t1.id, "created", "2026-03-02T12:30:00", { queue: s }),
    event(t1.id, "first_response", "2026-03-02T12:32:00", { actor: a, to: a, queue: s, value: 120_000 }),
    event(t1.id, "resolved", "2026-03-02T13:30:00", { actor: a, to: a, queue: s, value: 3_600_000 }),
    event(t1.id, "rated", "2026-03-02T13:40:00", { to: a, queue: s, value: 5 }),
    event(t2.id, "created", "2026-03-03T02:30:00", { queue: s }),
    event(t2.id, "first_response", "2026-03-03T02:40:00", { actor: b, to: b, queue: s, value: 600_000 }),
    event(t2.id, "resolved", "2026-03-03T14:00:00", { actor: b, to: b, queue: s, value: 41_400_000 }),
    event(t2.id, "reopened", "2026-03-03T15:00:00", { to: b, queue: s }),
    event(t2.id, "sla_breached", "2026-03-03T15:30:00", { to: b, queue: s }),
    event(t3.id, "created", "2026-03-03T13:00:00", { actor: a, to: a, queue: p }),
    event(t3.id, "first_response", "2026-03-03T13:01:30", { actor: a, to: a, queue: p, value: 90_000 }),
    event(t3.id, "resolved", "2026-03-03T15:00:00", { actor: a, to: a, queue: p, value: 7_200_000 }),
    event(t3.id, "rated", "2026-03-03T15:10:00", { to: a, queue: p, value: 4 }),
    event(t4.id, "created", "2026-03-02T02:59:59", { queue: s }),
    event(t4.id, "created", "2026-03-04T03:00:00", { to: a, queue: s }),
  ]);
  let n = 0;
  const typed = (ticketId: number, userId: number | null, at: string, isPrivate = false) => ({
    wid: `W${++n}`,
    whatsappId: conn.id,
    ticketId,
    body: "hi",
    fromMe: userId !== null,
    userId,
    isPrivate,
    createdAt: Z(at),
  });
  await ctx.db
    .insert(messages)
    .values([
      typed(t1.id, null, "2026-03-02T12:30:00"),
      typed(t1.id, a, "2026-03-02T12:32:00"),
      typed(t1.id, a, "2026-03-02T12:40:00"),
      typed(t1.id, a, "2026-03-02T13:00:00"),
      typed(t1.id, a, "2026-03-02T13:05:00", true),
      typed(t2.id, b, "2026-03-03T02:40:00"),
      typed(t2.id, b, "2026-03-03T03:00:00"),
      typed(t3.id, a, "2026-03-03T13:01:30"),
      typed(t3.id, a, "2026-03-04T03:00:00"),
    ]);
  return { ctx, admin, ana, bia, sales, support };
}

const summary = (ctx: TestContext, token: string, query = SPAN) =>
  call(ctx.app, "GET", `/api/reports/summary?${query}`, { token });

const NO_FIGURES = {
  created: 0,
  resolved: 0,
  reopened: 0,
  firstResponseMedianSeconds: null,
  firstResponseP90Seconds: null,
  resolutionMedianSeconds: null,
  resolutionP90Seconds: null,
  messagesSent: 0,
  csatAverage: null,
  csatCount: 0,
  slaBreaches: 0,
};

// Figures worked out by hand from the conversations above (percentiles interpolate between ranks).
const ANA = {
  ...NO_FIGURES,
  created: 1,
  resolved: 2,
  firstResponseMedianSeconds: 105, // (120 + 90) / 2
  firstResponseP90Seconds: 117, // 90 + 0.9 × 30
  resolutionMedianSeconds: 5400, // (3600 + 7200) / 2
  resolutionP90Seconds: 6840, // 3600 + 0.9 × 3600
  messagesSent: 4,
  csatAverage: 4.5,
  csatCount: 2,
};
const BIA = {
  ...NO_FIGURES,
  resolved: 1,
  reopened: 1,
  firstResponseMedianSeconds: 600,
  firstResponseP90Seconds: 600,
  resolutionMedianSeconds: 41_400,
  resolutionP90Seconds: 41_400,
  messagesSent: 2,
  slaBreaches: 1,
};
const SALES = {
  created: 2,
  resolved: 2,
  reopened: 1,
  firstResponseMedianSeconds: 360, // (120 + 600) / 2
  firstResponseP90Seconds: 552, // 120 + 0.9 × 480
  resolutionMedianSeconds: 22_500, // (3600 + 41400) / 2
  resolutionP90Seconds: 37_620, // 3600 + 0.9 × 37800
  messagesSent: 5,
  csatAverage: 5,
  csatCount: 1,
  slaBreaches: 1,
};
const SUPPORT = {
  ...NO_FIGURES,
  created: 1,
  resolved: 1,
  firstResponseMedianSeconds: 90,
  firstResponseP90Seconds: 90,
  resolutionMedianSeconds: 7200,
  resolutionP90Seconds: 7200,
  messagesSent: 1,
  csatAverage: 4,
  csatCount: 1,
};

describe("GET /api/reports/summary", () => {
  test("counts each agent's and queue's figures as worked out by hand, medians and 90th percentiles included", async () => {
    const { ctx, admin, ana, bia, sales, support } = await setup();
    const res = await summary(ctx, admin.token);
    expect(res.status).toBe(200);
    expect(res.json.agents).toEqual([
      { userId: admin.user.id, name: "Ada", ...NO_FIGURES },
      { userId: ana.user.id, name: "Ana", ...ANA },
      { userId: bia.user.id, name: "Bia", ...BIA },
    ]);
    expect(res.json.queues).toEqual([
      { queueId: sales.id, name: "Sales", ...SALES },
      { queueId: support.id, name: "Support", ...SUPPORT },
    ]);
    expect(res.json.totals).toEqual({
      created: 3,
      resolved: 3,
      reopened: 1,
      firstResponseMedianSeconds: 120, // 90, 120, 600
      firstResponseP90Seconds: 504, // 120 + 0.8 × 480
      resolutionMedianSeconds: 7200, // 3600, 7200, 41400
      resolutionP90Seconds: 34_560, // 7200 + 0.8 × 34200
      messagesSent: 6,
      csatAverage: 4.5,
      csatCount: 2,
      slaBreaches: 1,
    });
  });

  test("buckets days and the weekday × hour grid in the installation's time zone, not UTC", async () => {
    const { ctx, admin } = await setup();
    const res = await summary(ctx, admin.token);
    expect(res.json.days).toEqual([
      // Ticket 2, created 02:30Z on the 3rd, is 23:30 on Monday the 2nd in São Paulo.
      { date: "2026-03-02", created: 2, resolved: 1, firstResponseMedianSeconds: 360 },
      { date: "2026-03-03", created: 1, resolved: 2, firstResponseMedianSeconds: 90 },
    ]);
    const cells = res.json.heatmap.flatMap((hours: number[], day: number) =>
      hours.flatMap((n, hour) => (n ? [{ day, hour, n }] : [])),
    );
    expect(res.json.heatmap).toHaveLength(7);
    expect(cells).toEqual([
      { day: 0, hour: 9, n: 1 },
      { day: 0, hour: 23, n: 1 },
      { day: 1, hour: 10, n: 1 },
    ]);
  });

  test("takes plain dates as whole local days", async () => {
    const { ctx, admin } = await setup();
    const byDay = await summary(ctx, admin.token, "from=2026-03-02&to=2026-03-03");
    expect(byDay.json.from).toBe("2026-03-02T03:00:00.000Z");
    expect(byDay.json.to).toBe("2026-03-04T03:00:00.000Z");
    expect(byDay.json.agents).toEqual((await summary(ctx, admin.token)).json.agents);
  });

  test("defaults to the last 7 local days, today included, up to now", async () => {
    const { ctx, admin } = await setup();
    ctx.clock.t = Date.parse("2026-03-04T12:00:00Z");
    const res = await summary(ctx, admin.token, "");
    expect(res.status).toBe(200);
    expect(res.json.from).toBe("2026-02-26T03:00:00.000Z");
    expect(res.json.to).toBe("2026-03-04T12:00:00.000Z");
    expect(res.json.days.map((d: { date: string }) => d.date)).toEqual([
      "2026-02-26",
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
    ]);
    // The three tickets, and ticket 4 both times: its events fall outside the 2-day span but inside these 7 days.
    expect(res.json.totals.created).toBe(5);
  });

  test("queue and agent filters narrow every figure to those queues and agents", async () => {
    const { ctx, admin, ana, support } = await setup();
    const res = await summary(ctx, admin.token, `${SPAN}&queueIds=[${support.id}]&userIds=[${ana.user.id}]`);
    expect(res.status).toBe(200);
    expect(res.json.agents).toEqual([{ userId: ana.user.id, name: "Ana", ...SUPPORT }]);
    expect(res.json.queues).toEqual([{ queueId: support.id, name: "Support", ...SUPPORT }]);
    expect(res.json.totals).toEqual(SUPPORT);
    expect(res.json.days.map((d: { created: number }) => d.created)).toEqual([0, 1]);
  });

  test("an agent sees only their own line; asking for another agent's figures is refused", async () => {
    const { ctx, ana, bia } = await setup();
    const own = await summary(ctx, ana.token);
    expect(own.status).toBe(200);
    expect(own.json.agents).toEqual([{ userId: ana.user.id, name: "Ana", ...ANA }]);
    expect(own.json.totals).toEqual(ANA);
    expect((await summary(ctx, ana.token, `${SPAN}&userIds=[${ana.user.id}]`)).status).toBe(200);
    const other = await summary(ctx, ana.token, `${SPAN}&userIds=[${bia.user.id}]`);
    expect(other.status).toBe(403);
    expect(other.json.error).toBe("ERR_NO_PERMISSION");
    const csv = await call(ctx.app, "GET", `/api/reports/summary.csv?userIds=[${bia.user.id}]`, { token: ana.token });
    expect(csv.status).toBe(403);
  });

  test("refuses from after to, a span over 366 days and unknown queues or users, naming the field", async () => {
    const { ctx, admin } = await setup();
    const field = async (query: string) => {
      const res = await summary(ctx, admin.token, query);
      return { status: res.status, error: res.json.error, field: res.json.field };
    };
    expect(await field("from=2026-03-05T00:00:00Z&to=2026-03-04T00:00:00Z")).toEqual({
      status: 400,
      error: "VALIDATION",
      field: "from",
    });
    expect(await field("from=2025-03-01T00:00:00Z&to=2026-03-04T00:00:00Z")).toEqual({
      status: 400,
      error: "VALIDATION",
      field: "to",
    });
    expect(await field("from=yesterday")).toEqual({ status: 400, error: "VALIDATION", field: "from" });
    expect(await field(`${SPAN}&queueIds=[999999]`)).toEqual({ status: 400, error: "VALIDATION", field: "queueIds" });
    expect(await field(`${SPAN}&userIds=[999999]`)).toEqual({ status: 400, error: "VALIDATION", field: "userIds" });
    expect(await field(`${SPAN}&userIds=[0]`)).toMatchObject({ status: 400, error: "VALIDATION", field: "userIds" });
    expect((await summary(ctx, admin.token, "from=2025-03-04T00:00:00Z&to=2026-03-04T00:00:00Z")).status).toBe(200);
  });

  test("counts what the ticket routes record today: a ticket an agent opens, resolves and reopens", async () => {
    const ctx = await makeTestApp();
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx, { name: "Ana" });
    await createSandboxConnection(ctx, { name: "Shop", isDefault: true });
    const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511955554444" }).returning());
    const start = new Date(ctx.clock.now() - 60_000).toISOString();
    const created = await call(ctx.app, "POST", "/api/tickets", {
      token: agent.token,
      body: { contactId: contact.id, userId: agent.user.id, status: "open" },
    });
    expect(created.status).toBe(200);
    const id = created.json.id;
    ctx.clock.advance(60_000);
    expect(
      (await call(ctx.app, "PUT", `/api/tickets/${id}`, { token: agent.token, body: { status: "closed" } })).status,
    ).toBe(200);
    ctx.clock.advance(60_000);
    expect(
      (
        await call(ctx.app, "PUT", `/api/tickets/${id}`, {
          token: agent.token,
          body: { status: "open", userId: agent.user.id },
        })
      ).status,
    ).toBe(200);
    const to = new Date(ctx.clock.now() + 60_000).toISOString();
    const res = await summary(ctx, admin.token, `from=${start}&to=${to}&userIds=[${agent.user.id}]`);
    expect(res.json.agents[0]).toMatchObject({ name: "Ana", created: 1, resolved: 1, reopened: 1 });
  });
});

describe("a conversation through the API", () => {
  test("the customer waits 90 s for Ana's first reply and the ticket is resolved 10 minutes after it began", async () => {
    const ctx = await makeTestApp();
    const [sales] = await ctx.db.insert(queues).values({ name: "Sales", color: "#1e88e5" }).returning();
    const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
    const ana = await loginAs(ctx, { queueIds: [sales!.id], name: "Ana" });
    const conn = await createSandboxConnection(ctx, { farewellMessage: "Bye!", queueIds: [sales!.id] });
    const start = ctx.clock.now();
    const inbound = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token: admin.token,
      body: { from: "5511988887777", name: "Carla", body: "Hi" },
    });
    expect(inbound.status).toBeLessThan(300);
    const ticketId = (await ctx.db.select({ id: tickets.id }).from(tickets))[0]!.id;
    ctx.clock.advance(90_000);
    const put = (body: object) => call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: ana.token, body });
    expect((await put({ status: "open", userId: ana.user.id })).status).toBe(200);
    const reply = await call(ctx.app, "POST", `/api/messages/${ticketId}`, {
      token: ana.token,
      body: { body: "Hello" },
    });
    expect(reply.status).toBe(200);
    ctx.clock.advance(510_000);
    expect((await put({ status: "closed" })).status).toBe(200);

    const span = `from=${new Date(start - 60_000).toISOString()}&to=${new Date(ctx.clock.now() + 60_000).toISOString()}`;
    const res = await summary(ctx, admin.token, span);
    const answered = {
      resolved: 1,
      firstResponseMedianSeconds: 90,
      firstResponseP90Seconds: 90,
      resolutionMedianSeconds: 600,
      resolutionP90Seconds: 600,
      // The farewell is the connection's, not Ana's.
      messagesSent: 1,
    };
    expect(res.json.agents.find((a: { name: string }) => a.name === "Ana")).toMatchObject(answered);
    expect(res.json.queues).toEqual([{ queueId: sales!.id, name: "Sales", ...NO_FIGURES, ...answered, created: 1 }]);
    const inSales = await summary(ctx, admin.token, `${span}&queueIds=[${sales!.id}]`);
    expect(inSales.json.totals).toEqual({ ...NO_FIGURES, ...answered, created: 1 });
    expect(inSales.json.heatmap.flat().reduce((a: number, b: number) => a + b, 0)).toBe(1);
  });

  test("a ticket created without an agent counts as created by the first agent given it, once: not again after a transfer or a reopen", async () => {
    const ctx = await makeTestApp();
    const [sales] = await ctx.db.insert(queues).values({ name: "Sales", color: "#1e88e5" }).returning();
    const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
    const ana = await loginAs(ctx, { queueIds: [sales!.id], name: "Ana" });
    const bia = await loginAs(ctx, { queueIds: [sales!.id], name: "Bia" });
    const conn = await createSandboxConnection(ctx, { queueIds: [sales!.id] });
    const start = ctx.clock.now();
    const customerWrites = (body: string) =>
      call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
        token: admin.token,
        body: { from: "5511988887777", name: "Carla", body },
      });
    await customerWrites("Hi");
    const ticketId = (await ctx.db.select({ id: tickets.id }).from(tickets))[0]!.id;
    const put = (who: typeof ana, body: object) =>
      call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: who.token, body });
    expect((await put(ana, { status: "open", userId: ana.user.id })).status).toBe(200);
    expect((await put(ana, { userId: bia.user.id })).status).toBe(200);
    expect((await put(bia, { status: "closed" })).status).toBe(200);
    await customerWrites("It broke again");
    expect((await put(bia, { status: "open", userId: bia.user.id })).status).toBe(200);

    const span = `from=${new Date(start - 60_000).toISOString()}&to=${new Date(ctx.clock.now() + 60_000).toISOString()}`;
    const created = (res: { json: { agents: { name: string; created: number }[] } }) =>
      Object.fromEntries(res.json.agents.map((a) => [a.name, a.created]));
    const res = await summary(ctx, admin.token, span);
    expect(created(res)).toEqual({ Ada: 0, Ana: 1, Bia: 0 });
    expect(res.json.totals.created).toBe(1);
    const anasOwn = await summary(ctx, ana.token, span);
    expect(created(anasOwn)).toEqual({ Ana: 1 });
    expect(anasOwn.json.totals.created).toBe(1);
  });
});

describe("GET /api/reports/summary.csv", () => {
  test("carries the agents and queues tables with the same figures as the JSON answer", async () => {
    const { ctx, admin } = await setup();
    const json = (await summary(ctx, admin.token)).json;
    const res = await call(ctx.app, "GET", `/api/reports/summary.csv?${SPAN}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const [header, ...rows] = parseCsv(res.json);
    const keys = header!.slice(3);
    const figures = (line: Record<string, unknown>) => keys.map((k) => (line[k] === null ? "" : String(line[k])));
    expect(rows).toEqual([
      ...json.agents.map((a: Record<string, unknown>) => ["agent", String(a.userId), a.name, ...figures(a)]),
      ...json.queues.map((q: Record<string, unknown>) => ["queue", String(q.queueId), q.name, ...figures(q)]),
    ]);
    expect(keys).toContain("firstResponseP90Seconds");
  });
});

describe("/reports page", () => {
  test("renders the agent's own figures for the default span, in Spanish, with the drawer's link", async () => {
    const { ctx, ana } = await setup();
    ctx.clock.t = Date.parse("2026-03-04T12:00:00Z");
    const res = await ctx.app.handle(
      new Request(`${BASE}/reports`, { headers: { cookie: ana.cookie, "accept-language": "es" } }),
    );
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("Informes");
    expect(html).toContain('href="/reports"');
    const props = islandProps(html, "AgentReports");
    expect(props.admin).toBe(false);
    // The last 7 days also hold ticket 4, created for Ana on the 4th, and her message of that moment.
    expect(props.initial.agents).toEqual([{ userId: ana.user.id, name: "Ana", ...ANA, created: 2, messagesSent: 5 }]);
  });
});
