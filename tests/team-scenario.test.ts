// @engine each
import { expect, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import { contacts, ticketEvents, tickets } from "../src/db/tables";
import { assignmentsSettled } from "../src/modules/tickets/assignment-triggers";
import { AVAILABILITY_CHECK_EVERY_MS, scheduleAvailability, sightingsSettled } from "../src/modules/users/availability";
import { parseCsv } from "../src/shared/csv";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const SECOND = 1000;
const T0 = Date.parse("2026-03-10T12:00:00Z");

type Login = Awaited<ReturnType<typeof loginAs>>;

/**
 * A support team as a manager sets it up: three agents online in a round-robin queue capped at 2 open tickets
 * each, a connection with the satisfaction survey that lands everything in that queue.
 */
async function team() {
  const ctx = await makeTestApp();
  ctx.clock.t = T0;
  const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
  const queue = (
    await call(ctx.app, "POST", "/api/queue", {
      token: admin.token,
      body: { name: "Support", color: "#43a047", assignment: "round_robin", maxOpenPerAgent: 2 },
    })
  ).json;
  const [ana, bia, caio] = [
    await loginAs(ctx, { name: "Ana", queueIds: [queue.id] }),
    await loginAs(ctx, { name: "Bia", queueIds: [queue.id] }),
    await loginAs(ctx, { name: "Caio", queueIds: [queue.id] }),
  ] as [Login, Login, Login];
  const conn = await createSandboxConnection(ctx, {
    name: "Shop",
    isDefault: true,
    queueIds: [queue.id],
    csatEnabled: true,
    csatMessage: "Rate us, {{name}}: 1 to 5",
  });
  const customerWrites = async (n: number, body: string) => {
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token: admin.token,
      body: { from: phoneOf(n), name: `Customer ${n}`, body },
    });
    expect(res.status).toBe(200);
    await assignmentsSettled(ctx.deps);
  };
  return { ctx, admin, queue, ana, bia, caio, customerWrites };
}

const phoneOf = (n: number) => `5511977000${String(n).padStart(3, "0")}`;

/** Which customer (`n`) a ticket belongs to: tickets created at once need not be numbered in their order. */
const customerOf = async (ctx: TestContext, ticketId: number) => {
  const [row] = await ctx.db
    .select({ number: contacts.number })
    .from(contacts)
    .innerJoin(tickets, eq(tickets.contactId, contacts.id))
    .where(eq(tickets.id, ticketId));
  return Number(row!.number!.slice(-3));
};

async function setAvailability(ctx: TestContext, who: Login, availability: string) {
  const res = await call(ctx.app, "PUT", `/api/users/${who.user.id}/availability`, {
    token: who.token,
    body: { availability },
  });
  expect(res.status).toBe(200);
  await assignmentsSettled(ctx.deps);
}

async function put(ctx: TestContext, who: Login, ticketId: number, body: object) {
  const res = await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: who.token, body });
  expect(res.status).toBe(200);
  await assignmentsSettled(ctx.deps);
  return res.json;
}

async function reply(ctx: TestContext, who: Login, ticketId: number) {
  const res = await call(ctx.app, "POST", `/api/messages/${ticketId}`, {
    token: who.token,
    body: { body: `Hi, ${who.user.name} here` },
  });
  expect(res.status).toBe(200);
}

const ticketRow = async (ctx: TestContext, id: number) =>
  (await ctx.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

/** The open tickets an agent holds, oldest first. */
const ticketsHeldBy = async (ctx: TestContext, userId: number) =>
  await ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.status, "open"), eq(tickets.userId, userId)))
    .orderBy(asc(tickets.id));

/** The tickets of the `n`th customer, oldest first. */
const ticketOfCustomer = async (ctx: TestContext, n: number) =>
  await ctx.db
    .select({ id: tickets.id, status: tickets.status, userId: tickets.userId })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(eq(contacts.number, phoneOf(n)))
    .orderBy(asc(tickets.id));

/** Median and 90th percentile interpolating between ranks, as the README defines them. */
function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low));
}

interface Tally {
  created: number;
  resolved: number;
  reopened: number;
  firstResponses: number[];
  resolutions: number[];
  messagesSent: number;
  ratings: number[];
}

const emptyTally = (): Tally => ({
  created: 0,
  resolved: 0,
  reopened: 0,
  firstResponses: [],
  resolutions: [],
  messagesSent: 0,
  ratings: [],
});

const figuresOf = (t: Tally) => ({
  created: t.created,
  resolved: t.resolved,
  reopened: t.reopened,
  firstResponseMedianSeconds: percentile(t.firstResponses, 0.5),
  firstResponseP90Seconds: percentile(t.firstResponses, 0.9),
  resolutionMedianSeconds: percentile(t.resolutions, 0.5),
  resolutionP90Seconds: percentile(t.resolutions, 0.9),
  messagesSent: t.messagesSent,
  csatAverage: t.ratings.length
    ? Math.round((t.ratings.reduce((a, b) => a + b, 0) / t.ratings.length) * 100) / 100
    : null,
  csatCount: t.ratings.length,
  slaBreaches: 0,
});

test("a team's day: round-robin with a cap, an agent away and back, a transfer, CSAT, a reopen and a snooze add up in the report, its CSV and the ticket's history", async () => {
  const { ctx, admin, queue, ana, bia, caio, customerWrites } = await team();
  const at = (seconds: number) => {
    ctx.clock.t = T0 + seconds * SECOND;
  };
  // What the report should say, tallied as the story goes: per agent id, and for the queue.
  // Ada, an admin, is a user who could answer too: her line is there, empty.
  const byAgent = new Map([admin, ana, bia, caio].map((a) => [a.user.id, emptyTally()]));
  const all = emptyTally();
  const tally = (agent: Login | null, change: (t: Tally) => void) => {
    if (agent) change(byAgent.get(agent.user.id)!);
    change(all);
  };
  /** An agent answers a customer who has been waiting since `since` (seconds): their first response. */
  const firstReply = async (who: Login, ticketId: number, since: number, now: number) => {
    at(now);
    await reply(ctx, who, ticketId);
    tally(who, (t) => {
      t.firstResponses.push(now - since);
      t.messagesSent++;
    });
  };
  const resolve = async (who: Login, ticketId: number, since: number, now: number) => {
    at(now);
    const dto = await put(ctx, who, ticketId, { status: "closed" });
    expect(dto.status).toBe("closed");
    tally(who, (t) => {
      t.resolved++;
      t.resolutions.push(now - since);
    });
  };

  for (const agent of [ana, bia, caio]) await setAvailability(ctx, agent, "online");

  // 7 customers write at once: in turn, two each, the seventh waits.
  await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => customerWrites(n, "Hello, I need help")));
  tally(null, (t) => {
    t.created += 7;
  });
  const assigned = await ctx.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.kind, "assigned"))
    .orderBy(asc(ticketEvents.id));
  const [A, B, C] = [ana.user.id, bia.user.id, caio.user.id];
  expect(assigned.map((e) => [e.cause, e.toUserId])).toEqual([A, B, C, A, B, C].map((id) => ["round_robin", id]));
  const [a1, b1, c1, a2, b2, c2] = assigned.map((e) => e.ticketId) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // A ticket created without an agent counts, in the agents' lines, as created by the first agent it is given.
  const firstAgent = (agent: Login) => byAgent.get(agent.user.id)!.created++;
  for (const agent of [ana, bia, caio, ana, bia, caio]) firstAgent(agent);
  const rows = await ctx.db.select().from(tickets).orderBy(asc(tickets.id));
  expect(rows.filter((t) => t.status === "open")).toHaveLength(6);
  const pending = rows.filter((t) => t.status === "pending");
  expect(pending.map((t) => t.userId)).toEqual([null]);
  const p1 = pending[0]!.id;

  // First responses, with the clock moved by known amounts.
  await firstReply(ana, a1!, 0, 60);
  await firstReply(bia, b1!, 0, 120);
  await firstReply(caio, c1!, 0, 180);
  await firstReply(ana, a2!, 0, 300);
  await firstReply(bia, b2!, 0, 600);
  await firstReply(caio, c2!, 0, 900);

  // Bia goes away and resolves one: the customer gets the survey, and she gets nothing new.
  at(1000);
  await setAvailability(ctx, bia, "away");
  await resolve(bia, b1, 0, 1000);
  expect((await ticketRow(ctx, p1)).userId).toBeNull();
  at(1100);
  await customerWrites(8, "Anyone there?");
  tally(null, (t) => {
    t.created++;
  });
  const [p2] = await ticketOfCustomer(ctx, 8);
  expect([p2!.status, p2!.userId]).toEqual(["pending", null]);

  // She comes back: the oldest waiting ticket is hers, the newer one still waits.
  at(1200);
  await setAvailability(ctx, bia, "online");
  expect(await ticketRow(ctx, p1)).toMatchObject({ status: "open", userId: B });
  firstAgent(bia);
  expect(await ticketRow(ctx, p2!.id)).toMatchObject({ status: "pending", userId: null });

  // The customer of b1 rates 5, then comments: stored, no reopening, no new ticket.
  const customerOfB1 = await customerOf(ctx, b1);
  at(1300);
  await customerWrites(customerOfB1, "5");
  at(1360);
  await customerWrites(customerOfB1, "Bia was great");
  tally(bia, (t) => t.ratings.push(5));
  expect(await ticketRow(ctx, b1)).toMatchObject({ status: "closed", csatRating: 5, csatComment: "Bia was great" });
  expect(await ticketOfCustomer(ctx, customerOfB1)).toHaveLength(1);
  const b1Rated = await call(ctx.app, "GET", `/api/tickets/${b1}`, { token: admin.token });
  expect(b1Rated.json.csat).toMatchObject({ rating: 5, comment: "Bia was great" });

  await firstReply(bia, p1, 0, 1500);

  // Ana hands a1 to Caio: her freed place goes to the ticket still waiting.
  at(1600);
  const moved = await put(ctx, ana, a1, { userId: C, queueId: queue.id });
  expect(moved).toMatchObject({ status: "open", userId: C });
  expect(await ticketRow(ctx, p2!.id)).toMatchObject({ status: "open", userId: A });
  firstAgent(ana);
  await firstReply(ana, p2!.id, 1100, 1700);

  // Caio resolves a1; its customer rates it 4.
  await resolve(caio, a1, 0, 1800);
  const customerOfA1 = await customerOf(ctx, a1);
  at(1850);
  await customerWrites(customerOfA1, "4");
  tally(caio, (t) => t.ratings.push(4));
  await resolve(caio, c1, 0, 1900);

  // Later the same customer writes again: a1 reopens, and the only agent under the cap gets it.
  at(2500);
  await customerWrites(customerOfA1, "It broke again");
  tally(null, (t) => {
    t.reopened++;
  });
  expect(await ticketOfCustomer(ctx, customerOfA1)).toEqual([expect.objectContaining({ id: a1 })]);
  expect(await ticketRow(ctx, a1)).toMatchObject({ status: "open", userId: C });
  await firstReply(caio, a1, 2500, 2600);

  // Caio snoozes it for an hour; it wakes by itself.
  at(2700);
  const snoozed = await call(ctx.app, "POST", `/api/tickets/${a1}/snooze`, {
    token: caio.token,
    body: { until: new Date(T0 + 6300 * SECOND).toISOString() },
  });
  expect(snoozed.status).toBe(200);
  at(6300);
  await ctx.deps.jobs.tick();
  expect(await ticketRow(ctx, a1)).toMatchObject({ status: "open", userId: C, snoozedUntil: null });
  // Its second resolution counts from the reopening.
  await resolve(caio, a1, 2500, 6400);

  // The report over the span says what happened.
  const span = `from=${new Date(T0 - 3600_000).toISOString()}&to=${new Date(T0 + 3 * 3600_000).toISOString()}`;
  const report = await call(ctx.app, "GET", `/api/reports/summary?${span}`, { token: admin.token });
  expect(report.status).toBe(200);
  const names = new Map([admin, ana, bia, caio].map((a) => [a.user.id, a.user.name]));
  expect(report.json.agents).toEqual(
    [...byAgent].map(([userId, t]) => ({ userId, name: names.get(userId), ...figuresOf(t) })),
  );
  expect(report.json.queues).toEqual([{ queueId: queue.id, name: "Support", ...figuresOf(all) }]);
  expect(report.json.totals).toMatchObject(figuresOf(all));

  // Everything happened on Tuesday 10 March around noon (UTC): one day, one cell of the weekday × hour grid.
  const day = report.json.days.find((d: { date: string }) => d.date === "2026-03-10");
  expect(day).toEqual({
    date: "2026-03-10",
    created: all.created,
    resolved: all.resolved,
    firstResponseMedianSeconds: percentile(all.firstResponses, 0.5),
  });
  const others = report.json.days.filter((d: { date: string }) => d !== day);
  expect(others.every((d: { created: number; resolved: number }) => d.created === 0 && d.resolved === 0)).toBe(true);
  expect(report.json.heatmap[1][12]).toBe(all.created);
  expect(report.json.heatmap.flat().reduce((a: number, b: number) => a + b, 0)).toBe(all.created);

  // Bia sees her own line, the same figures; Ana's are not hers to see.
  const own = await call(ctx.app, "GET", `/api/reports/summary?${span}`, { token: bia.token });
  expect(own.json.agents).toEqual([{ userId: B, name: "Bia", ...figuresOf(byAgent.get(B)!) }]);
  const others403 = await call(ctx.app, "GET", `/api/reports/summary?${span}&userIds=[${A}]`, { token: bia.token });
  expect(others403).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });

  // The dashboard's team: everyone online, Ana and Bia with two open tickets, Caio with c2.
  const dashboard = await call(ctx.app, "GET", "/api/dashboard", { token: admin.token });
  const load = new Map(dashboard.json.team.map((m: { id: number; openTickets: number }) => [m.id, m.openTickets]));
  expect([A, B, C].map((id) => load.get(id))).toEqual([2, 2, 1]);

  // The CSV carries the same numbers.
  const csv = await call(ctx.app, "GET", `/api/reports/summary.csv?${span}`, { token: admin.token });
  expect(csv.status).toBe(200);
  const [header, ...lines] = parseCsv(csv.json);
  const keys = header!.slice(3);
  const cells = (line: Record<string, unknown>) => keys.map((k) => (line[k] == null ? "" : String(line[k])));
  expect(lines).toEqual([
    ...report.json.agents.map((a: Record<string, unknown>) => ["agent", String(a.userId), a.name, ...cells(a)]),
    ...report.json.queues.map((q: Record<string, unknown>) => ["queue", String(q.queueId), q.name, ...cells(q)]),
  ]);

  // a1's history tells its whole story, in order.
  const events = await call(ctx.app, "GET", `/api/tickets/${a1}/events`, { token: admin.token });
  expect(events.status).toBe(200);
  expect(
    events.json.events.map((e: { kind: string; cause: string; actor: { id: number } | null; at: string }) => [
      e.kind,
      e.cause,
      e.actor?.id ?? null,
      (Date.parse(e.at) - T0) / SECOND,
    ]),
  ).toEqual([
    ["created", "customer", null, 0],
    // The connection's only queue takes it in.
    ["transferred", "chatbot", null, 0],
    ["assigned", "round_robin", null, 0],
    ["first_response", "agent", A, 60],
    ["transferred", "agent", A, 1600],
    ["resolved", "agent", C, 1800],
    ["rated", "customer", null, 1850],
    ["reopened", "customer", null, 2500],
    ["assigned", "round_robin", null, 2500],
    ["first_response", "agent", C, 2600],
    ["snoozed", "agent", C, 2700],
    ["woken", "system", null, 6300],
    ["resolved", "agent", C, 6400],
  ]);
});

test("an agent whose last socket closed goes offline after two minutes and gets nothing new; back on a socket, the oldest waiting ticket is theirs", async () => {
  const { ctx, admin, ana, bia, caio, customerWrites } = await team();
  await scheduleAvailability(ctx.deps);
  const socket = async (who: Login, change: "opened" | "closed") => {
    ctx.deps.presence[change](who.user.id);
    await sightingsSettled(ctx.deps);
    await assignmentsSettled(ctx.deps);
  };
  for (const agent of [ana, bia, caio]) await socket(agent, "opened");
  await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => customerWrites(n, "Hello")));
  const held = (id: number) => ticketsHeldBy(ctx, id);
  expect(await held(caio.user.id)).toHaveLength(2);

  await socket(caio, "closed");
  for (let i = 0; i < 8; i++) {
    ctx.clock.advance(AVAILABILITY_CHECK_EVERY_MS);
    await ctx.deps.jobs.tick();
  }
  await assignmentsSettled(ctx.deps);
  const dashboard = await call(ctx.app, "GET", "/api/dashboard", { token: admin.token });
  const availability = new Map(
    dashboard.json.team.map((m: { id: number; availability: string }) => [m.id, m.availability]),
  );
  expect([ana, bia, caio].map((a) => availability.get(a.user.id))).toEqual(["online", "online", "offline"]);

  const [first] = await held(caio.user.id);
  await put(ctx, caio, first!.id, { status: "closed" });
  ctx.clock.advance(1000);
  await customerWrites(8, "Hello?");
  expect(await held(caio.user.id)).toHaveLength(1);
  const waiting = await ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(eq(tickets.status, "pending"))
    .orderBy(asc(tickets.createdAt), asc(tickets.id));
  expect(waiting).toHaveLength(2);

  await socket(caio, "opened");
  expect((await held(caio.user.id)).map((t) => t.id)).toContain(waiting[0]!.id);
  expect(await ticketRow(ctx, waiting[1]!.id)).toMatchObject({ status: "pending", userId: null });
});
