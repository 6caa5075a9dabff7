// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connections, contacts, queues, tickets, type TicketRow } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp, setupAdminAndAgent, type TestContext } from "./helpers";

let seq = 0;
async function ticket(ctx: TestContext, values: Partial<TicketRow>) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "D", number: `55519${String(++seq).padStart(8, "0")}` })
      .returning(),
  );
  return await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, ...values })
      .returning(),
  );
}

describe("GET /dashboard", () => {
  test("counts by status and today's tickets per hour 08–19 in the configured time zone, with the caller's queue visibility", async () => {
    const ctx = await makeTestApp({ timeZone: "America/Sao_Paulo" });
    ctx.clock.t = Date.parse("2026-03-05T20:00:00Z"); // 17:00 in São Paulo
    const a = await one(ctx.db.insert(queues).values({ name: "A", color: "#a" }).returning());
    const b = await one(ctx.db.insert(queues).values({ name: "B", color: "#b" }).returning());
    const { token } = await loginAs(ctx, { queueIds: [a.id] });
    const admin = await loginAs(ctx, { profile: "admin" });
    await ticket(ctx, { status: "open", queueId: a.id, createdAt: new Date("2026-03-05T11:30:00Z") }); // 08:30 local
    await ticket(ctx, { status: "pending", queueId: null, createdAt: new Date("2026-03-05T22:59:00Z") }); // 19:59 local
    await ticket(ctx, { status: "closed", queueId: a.id, createdAt: new Date("2026-03-05T02:00:00Z") }); // 23:00 the day before
    await ticket(ctx, { status: "open", queueId: b.id, createdAt: new Date("2026-03-05T12:00:00Z") }); // other queue, 09:00
    const mine = await call(ctx.app, "GET", "/api/dashboard", { token });
    expect(mine.json).toMatchObject({ open: 1, pending: 1, closed: 1, hourly: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
    const all = await call(ctx.app, "GET", "/api/dashboard", { token: admin.token });
    expect(all.json).toMatchObject({ open: 2, pending: 1, closed: 1, hourly: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
    expect((await call(ctx.app, "GET", "/api/dashboard")).status).toBe(401);
  });
});

describe("the dashboard's team", () => {
  test("lists every user, online first, then away, then offline, with their open tickets among those the caller may see", async () => {
    const ctx = await makeTestApp();
    const a = await one(ctx.db.insert(queues).values({ name: "A", color: "#a" }).returning());
    const b = await one(ctx.db.insert(queues).values({ name: "B", color: "#b" }).returning());
    const admin = await loginAs(ctx, { profile: "admin", name: "Zoe" });
    const ana = await loginAs(ctx, { name: "Ana", queueIds: [a.id] });
    const bruno = await loginAs(ctx, { name: "Bruno", queueIds: [b.id] });
    const choose = (who: typeof ana, availability: string) =>
      call(ctx.app, "PUT", `/api/users/${who.user.id}/availability`, { token: who.token, body: { availability } });
    await choose(ana, "online");
    await choose(bruno, "away");
    await ticket(ctx, { status: "open", queueId: a.id, userId: ana.user.id });
    await ticket(ctx, { status: "open", queueId: a.id, userId: ana.user.id });
    await ticket(ctx, { status: "open", queueId: b.id, userId: bruno.user.id });
    await ticket(ctx, { status: "open", queueId: a.id, userId: bruno.user.id });
    await ticket(ctx, { status: "pending", queueId: a.id, userId: ana.user.id });
    await ticket(ctx, { status: "closed", queueId: a.id, userId: ana.user.id });
    const team = async (token: string) => (await call(ctx.app, "GET", "/api/dashboard", { token })).json.team;
    expect(await team(admin.token)).toEqual([
      { id: ana.user.id, name: "Ana", profile: "user", availability: "online", openTickets: 2 },
      { id: bruno.user.id, name: "Bruno", profile: "user", availability: "away", openTickets: 2 },
      { id: admin.user.id, name: "Zoe", profile: "admin", availability: "offline", openTickets: 0 },
    ]);
    expect((await team(ana.token)).map((m: { name: string; openTickets: number }) => [m.name, m.openTickets])).toEqual([
      ["Ana", 2],
      ["Bruno", 1],
      ["Zoe", 0],
    ]);
  });
});

describe("first-run checklist", () => {
  test("GET /dashboard/onboarding ticks queues, agents and the sandbox as they appear; a number, real or sandbox, only once connected; agents get 403", async () => {
    const { ctx, admin, agent } = await setupAdminAndAgent();
    const steps = async () => (await call(ctx.app, "GET", "/api/dashboard/onboarding", { token: admin.token })).json;
    expect(await steps()).toEqual({
      numberConnected: false,
      queuesCreated: false,
      agentsInvited: true,
      sandboxTried: false,
    });
    await ctx.db.insert(queues).values({ name: "Sales", color: "#f00" });
    const sandbox = await createSandboxConnection(ctx, { scan: false });
    await ctx.db.insert(connections).values({ name: "Phone", provider: "baileys", status: "qrcode" });
    expect(await steps()).toEqual({
      numberConnected: false,
      queuesCreated: true,
      agentsInvited: true,
      sandboxTried: true,
    });
    await ctx.db.update(connections).set({ status: "CONNECTED" }).where(eq(connections.name, "Phone"));
    expect((await steps()).numberConnected).toBe(true);
    await ctx.db.update(connections).set({ status: "DISCONNECTED" }).where(eq(connections.name, "Phone"));
    expect((await steps()).numberConnected).toBe(false);
    await ctx.sandbox.scan(sandbox.id);
    expect((await steps()).numberConnected).toBe(true);
    expect((await call(ctx.app, "GET", "/api/dashboard/onboarding", { token: agent.token })).status).toBe(403);
  });

  test("without the sandbox the checklist does not offer it", async () => {
    const ctx = await makeTestApp({ sandbox: false });
    const admin = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "GET", "/api/dashboard/onboarding", { token: admin.token });
    expect(res.json.sandboxTried).toBeNull();
  });
});
