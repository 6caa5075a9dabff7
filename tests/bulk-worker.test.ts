// @engine each
import { first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { connections, contacts, jobLanes, jobs, massMessages, messages, tickets } from "../src/db/tables";
import { waitFor } from "./wait-for";
import { LANE_WINDOW_MS } from "../src/jobs/runner";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const phones = ["5511999990001", "5511999990002", "5511999990003", "5511999990004"];

async function campaign(ctx: TestContext, settings: Record<string, unknown>, list = phones) {
  const admin = (await loginAs(ctx, { profile: "admin" })).token;
  const w = await createSandboxConnection(ctx);
  expect(
    (await call(ctx.app, "POST", "/api/settingsMessage", { token: admin, body: { whatsappId: w.id, ...settings } }))
      .status,
  ).toBe(200);
  const res = await call(ctx.app, "POST", "/api/bulkMessage", {
    token: admin,
    body: list.map((phone) => ({ message: `Oi ${phone}`, phone, whatsappId: w.id })),
  });
  expect(res.status).toBe(200);
  return { admin, w };
}

/** Moves the injected clock a second at a time, letting the job runner take what is due after each step. */
async function runFor(ctx: TestContext, seconds: number) {
  for (let i = 0; i < seconds; i++) {
    ctx.clock.advance(1000);
    await ctx.deps.jobs.tick();
  }
}

const records = async (ctx: TestContext) => await ctx.db.select().from(massMessages).orderBy(asc(massMessages.id));

describe("bulk worker", () => {
  test("sends one record per interval, stops at the 24 h limit and goes on when the window moves", async () => {
    const ctx = await makeTestApp();
    const { w } = await campaign(ctx, { limit: 3, minutes: 0, seconds: 1 });
    await runFor(ctx, 10);
    const rows = await records(ctx);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent", "pending"]);
    const times = rows.slice(0, 3).map((r) => r.sentAt!);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1000);
    expect((await ctx.sandbox.network.outbox(w.id)).map((m) => m.peer)).toEqual(phones.slice(0, 3));

    ctx.clock.advance(LANE_WINDOW_MS - 10_000);
    await runFor(ctx, 1);
    expect((await records(ctx)).at(-1)!.status).toBe("pending");
    await runFor(ctx, 3);
    expect((await records(ctx)).at(-1)!.status).toBe("sent");
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(4);
  });

  test("the first record goes at once, then one per minutes×60+seconds; a settings change applies to the wait in progress", async () => {
    const ctx = await makeTestApp();
    const { admin, w } = await campaign(ctx, { limit: 10, minutes: 1, seconds: 0 });
    await runFor(ctx, 1);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(1);
    await runFor(ctx, 59);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(1);
    await runFor(ctx, 1);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(2);
    await runFor(ctx, 1);
    await call(ctx.app, "POST", "/api/settingsMessage", {
      token: admin,
      body: { whatsappId: w.id, minutes: 0, seconds: 3 },
    });
    await runFor(ctx, 1);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(2);
    await runFor(ctx, 1);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(3);
  });

  test("with random on, each wait is the interval plus at most as much again", async () => {
    const ctx = await makeTestApp();
    await campaign(ctx, { limit: 10, minutes: 0, seconds: 2, random: true });
    await runFor(ctx, 20);
    const times = (await records(ctx)).map((r) => r.sentAt!);
    expect(times.every(Boolean)).toBe(true);
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2000);
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(4000);
    }
  });

  test("limit 0 pauses the campaign", async () => {
    const ctx = await makeTestApp();
    const { w } = await campaign(ctx, { limit: 0, minutes: 0, seconds: 1 });
    await runFor(ctx, 5);
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(0);
    expect((await records(ctx)).every((r) => r.status === "pending")).toBe(true);
  });

  test("a sent record is a message in the contact's ticket, and every status change is told to admins", async () => {
    const ctx = await makeTestApp();
    const { w } = await campaign(ctx, { limit: 10, minutes: 0, seconds: 1 }, [phones[0]!]);
    await runFor(ctx, 2);
    const contact = (await firstRow(ctx.db.select().from(contacts).where(eq(contacts.number, phones[0]!))))!;
    const ticket = (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id))))!;
    expect(ticket.whatsappId).toBe(w.id);
    const stored = await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored).toMatchObject([{ body: `Oi ${phones[0]}`, fromMe: true, sendState: "sent" }]);
    const statuses = ctx.hub
      .to("admins", "massMessage")
      .map((e) => (e.payload as { record?: { status: string } }).record?.status);
    expect(statuses).toEqual(["pending", "sending", "sent"]);
  });

  test("a number that is not on WhatsApp or has no photo (photo filter on) or is not saved (contacts filter on) is skipped with its status", async () => {
    const ctx = await makeTestApp();
    const notOnWhatsApp = ctx.channels.checkNumber.bind(ctx.channels);
    ctx.channels.checkNumber = async (id, phone) => (phone === phones[0] ? null : await notOnWhatsApp(id, phone));
    const { admin, w } = await campaign(ctx, { limit: 10, minutes: 0, seconds: 1, photo: true }, phones.slice(0, 2));
    await runFor(ctx, 4);
    expect((await records(ctx)).map((r) => r.status)).toEqual(["number not exists", "no photo contact"]);
    await call(ctx.app, "POST", "/api/settingsMessage", {
      token: admin,
      body: { whatsappId: w.id, photo: false, contacts: true },
    });
    await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: [{ message: "Oi", phone: phones[2], whatsappId: w.id }],
    });
    await runFor(ctx, 2);
    expect((await records(ctx)).at(-1)!.status).toBe("not a contact");
    expect(await ctx.sandbox.network.outbox(w.id)).toHaveLength(0);
  });

  test("a send the network refuses marks the record error and the campaign goes on", async () => {
    const ctx = await makeTestApp();
    const send = ctx.channels.sendText.bind(ctx.channels);
    ctx.channels.sendText = async (id, to, isGroup, body, opts) => {
      if (to === phones[0]) throw new Error("boom");
      return send(id, to, isGroup, body, opts);
    };
    await campaign(ctx, { limit: 10, minutes: 0, seconds: 1 }, phones.slice(0, 2));
    await runFor(ctx, 4);
    expect((await records(ctx)).map((r) => r.status)).toEqual(["error", "sent"]);
  });

  test("nothing is sent while the connection is down; the campaign resumes when it is back", async () => {
    const ctx = await makeTestApp();
    const { w } = await campaign(ctx, { limit: 10, minutes: 0, seconds: 1 }, phones.slice(0, 1));
    await ctx.channels.stop(w.id);
    await runFor(ctx, 3);
    expect((await records(ctx))[0]!.status).toBe("pending");
    await ctx.channels.start(w.id);
    await runFor(ctx, 2);
    expect((await records(ctx))[0]!.status).toBe("sent");
  });

  test("a connection that runs but is not CONNECTED holds its recipients, attempts unused, until it is", async () => {
    const ctx = await makeTestApp();
    const admin = (await loginAs(ctx, { profile: "admin" })).token;
    const w = await createSandboxConnection(ctx, { scan: false });
    await call(ctx.app, "POST", "/api/settingsMessage", {
      token: admin,
      body: { whatsappId: w.id, limit: 10, minutes: 0, seconds: 1 },
    });
    await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: phones.slice(0, 2).map((phone) => ({ message: `Oi ${phone}`, phone, whatsappId: w.id })),
    });
    await runFor(ctx, 30);
    expect((await records(ctx)).map((r) => r.status)).toEqual(["pending", "pending"]);
    expect((await ctx.db.select().from(jobs)).map((j) => [j.status, j.attempts])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    await ctx.sandbox.scan(w.id);
    // CONNECTED wakes the lane at once (a write of its own, after the status report).
    await waitFor(async () => (await firstRow(ctx.db.select().from(jobLanes)))?.heldUntil === null);
    await runFor(ctx, 2);
    expect((await records(ctx)).map((r) => r.status)).toEqual(["sent", "sent"]);
  });

  test("a restart after a crash mid-campaign never sends a recipient twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-bulk-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const first = await makeTestApp(paths);
    const { w } = await campaign(first, { limit: 10, minutes: 0, seconds: 1 });
    await runFor(first, 1);
    expect(await first.sandbox.network.outbox(w.id)).toHaveLength(1);
    // The second send reaches the network, then the process dies before hearing back.
    const send = first.channels.sendText.bind(first.channels);
    let reached!: () => void;
    const atNetwork = new Promise<void>((resolve) => (reached = resolve));
    first.channels.sendText = async (...args) => {
      await send(...args);
      reached();
      return new Promise<void>(() => {});
    };
    first.clock.advance(1000);
    void first.deps.jobs.tick();
    await atNetwork;
    expect(await first.sandbox.network.outbox(w.id)).toHaveLength(2);
    expect((await records(first)).map((r) => r.status)).toEqual(["sent", "sending", "pending", "pending"]);
    // The third was claimed when the process died, before its message was stored.
    await first.db.update(massMessages).set({ status: "sending" }).where(eq(massMessages.phone, phones[2]!));

    const second = await makeTestApp(paths);
    second.clock.t = first.clock.t;
    await second.channels.start(w.id);
    expect((await firstRow(second.db.select().from(connections).where(eq(connections.id, w.id))))!.status).toBe(
      "CONNECTED",
    );
    second.clock.advance(10 * 60_000);
    await runFor(second, 6);
    expect((await records(second)).map((r) => r.status)).toEqual(["sent", "sent", "sent", "sent"]);
    const peers = (await second.sandbox.network.outbox(w.id)).map((m) => m.peer);
    expect(peers.sort()).toEqual([...phones].sort());
  });
});
