import { closeDatabase, first as firstRow } from "../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { jobs, tickets, webhookDeliveries } from "../src/db/tables";
import { RETRY_BASE_MS, RETRY_WINDOW_MS } from "../src/modules/webhooks/deliver";
import { webhookEventsRecorded } from "../src/modules/webhooks/observe";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

interface Received {
  headers: Headers;
  body: string;
}

/** A local receiver answering with the given statuses in turn (the last one repeats). */
function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      received.push({ headers: req.headers, body: await req.text() });
      return new Response("ok", { status: statuses[Math.min(received.length - 1, statuses.length - 1)] });
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}/hook`, received };
}
const servers: ReturnType<typeof Bun.serve>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

let current: TestContext | undefined;
const settle = () => webhookEventsRecorded(current!.deps);
const hmac = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

async function setup() {
  const ctx = await makeTestApp();
  current = ctx;
  const { token } = await loginAs(ctx, { profile: "admin" });
  const conn = await createSandboxConnection(ctx, { isDefault: true });
  return { ctx, token, conn };
}

async function addEndpoint(ctx: TestContext, token: string, url: string, events: string[]) {
  const res = await call(ctx.app, "POST", "/api/webhooks", { token, body: { url, events } });
  expect(res.status).toBe(200);
  return res.json as { id: number; secret: string };
}

describe("outbound webhooks", () => {
  test("an inbound message is delivered signed with the endpoint's secret, with its event header", async () => {
    const { ctx, token, conn } = await setup();
    const hook = receiver([204]);
    const endpoint = await addEndpoint(ctx, token, hook.url, ["message.received"]);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", name: "Ana", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got!.headers.get("x-zapdesk-event")).toBe("message.received");
    expect(got!.headers.get("x-zapdesk-signature")).toBe(hmac(endpoint.secret, got!.body));
    expect(JSON.parse(got!.body)).toMatchObject({
      event: "message.received",
      data: { body: "Oi", fromMe: false, contact: { number: "5511988887777" } },
    });
    const log = await call(ctx.app, "GET", "/api/webhooks/deliveries", { token });
    expect(log.json.deliveries[0]).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 204 });
  });

  test("a 500 is tried again after the backoff on the clock, and the log shows both attempts", async () => {
    const { ctx, token, conn } = await setup();
    const hook = receiver([500, 200]);
    await addEndpoint(ctx, token, hook.url, ["message.received"]);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
    let log = await call(ctx.app, "GET", "/api/webhooks/deliveries", { token });
    expect(log.json.deliveries[0]).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });

    ctx.clock.advance(RETRY_BASE_MS - 1);
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
    ctx.clock.advance(1);
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]!.body).toBe(hook.received[0]!.body);

    log = await call(ctx.app, "GET", "/api/webhooks/deliveries", { token });
    expect(log.json.deliveries[0]).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
    expect(
      log.json.deliveries[0].tries.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode]),
    ).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  test("a receiver failing for 24 hours ends the delivery as failed, with no job left", async () => {
    const { ctx, token, conn } = await setup();
    const hook = receiver([503]);
    await addEndpoint(ctx, token, hook.url, ["message.received"]);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    for (let elapsed = 0; elapsed <= RETRY_WINDOW_MS + 3600_000; elapsed += 15 * 60_000) {
      await ctx.deps.jobs.tick();
      ctx.clock.advance(15 * 60_000);
    }
    const [delivery] = await ctx.db.select().from(webhookDeliveries);
    expect(delivery).toMatchObject({ status: "failed", lastStatusCode: 503, nextAttemptAt: null });
    expect(delivery!.attempts).toBeGreaterThan(20);
    expect(hook.received).toHaveLength(delivery!.attempts);
    expect(
      (await ctx.db.select().from(jobs).where(eq(jobs.status, "pending"))).filter((j) => j.kind === "webhook.deliver"),
    ).toHaveLength(0);
  });

  test("sent messages, their acks and ticket status changes go only to endpoints subscribed to them", async () => {
    const { ctx, token, conn } = await setup();
    const statusHook = receiver([200]);
    const sentHook = receiver([200]);
    await addEndpoint(ctx, token, statusHook.url, ["ticket.status"]);
    await addEndpoint(ctx, token, sentHook.url, ["message.sent", "message.ack"]);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    const ticketId = (await firstRow(ctx.db.select().from(tickets)))!.id;
    const res = await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token, body: { status: "open" } });
    expect(res.status).toBe(200);
    await call(ctx.app, "POST", `/api/messages/${ticketId}`, { token, body: { body: "Hello" } });
    await ctx.sandbox.network.settle();
    await settle();
    for (let i = 0; i < 5; i++) await ctx.deps.jobs.tick();
    const byDelivery = (received: Received[]) =>
      [...received].sort(
        (a, b) => Number(a.headers.get("x-zapdesk-delivery")) - Number(b.headers.get("x-zapdesk-delivery")),
      );
    const statuses = byDelivery(statusHook.received).map((r) => JSON.parse(r.body).data);
    expect(statuses.map((d) => [d.previousStatus, d.status])).toEqual([
      [null, "pending"],
      ["pending", "open"],
    ]);
    // Deliveries run side by side: their order is that of their ids, not of their arrival.
    const events = byDelivery(sentHook.received).map((r) => r.headers.get("x-zapdesk-event"));
    expect(events[0]).toBe("message.sent");
    expect(events.slice(1).every((e) => e === "message.ack")).toBe(true);
    expect(events.length).toBeGreaterThan(1);
    expect(sentHook.received.some((r) => JSON.parse(r.body).data.fromMe === false)).toBe(false);
  });

  test("a delivery recorded without its job (a stop in between) is queued again at the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-hooks-"));
    const databasePath = join(dir, "db.sqlite");
    const hook = receiver([200]);
    const first = await makeTestApp({ databasePath });
    const { token } = await loginAs(first, { profile: "admin" });
    const endpoint = await addEndpoint(first, token, hook.url, ["message.received"]);
    await first.db
      .insert(webhookDeliveries)
      .values({ endpointId: endpoint.id, event: "message.received", dedupeKey: "msg:1", body: "{}" });
    await closeDatabase(first.db);
    const second = await makeTestApp({ databasePath });
    await second.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
    expect((await firstRow(second.db.select().from(webhookDeliveries)))!.status).toBe("delivered");
  });

  test("only http(s) URLs and known events are accepted; agents may not manage webhooks", async () => {
    const { ctx, token } = await setup();
    for (const url of [
      "ftp://example.com/x",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "not a url",
      "http://user:pw@example.com/",
    ]) {
      expect(
        await call(ctx.app, "POST", "/api/webhooks", { token, body: { url, events: ["message.received"] } }),
      ).toMatchObject({ status: 400, json: { error: "ERR_INVALID_WEBHOOK_URL" } });
    }
    expect(
      (
        await call(ctx.app, "POST", "/api/webhooks", {
          token,
          body: { url: "https://example.com/x", events: ["nope"] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(ctx.app, "POST", "/api/webhooks", { token, body: { url: "https://example.com/x", events: [] } }))
        .status,
    ).toBe(400);
    const { token: agent } = await loginAs(ctx);
    expect((await call(ctx.app, "GET", "/api/webhooks", { token: agent })).status).toBe(403);
    expect(
      (
        await call(ctx.app, "POST", "/api/webhooks", {
          token: agent,
          body: { url: "https://example.com/x", events: ["message.received"] },
        })
      ).status,
    ).toBe(403);
  });

  test("endpoints can be paused and removed; a removed one takes its log with it", async () => {
    const { ctx, token, conn } = await setup();
    const hook = receiver([200]);
    const endpoint = await addEndpoint(ctx, token, hook.url, ["message.received"]);
    expect(
      (await call(ctx.app, "PUT", `/api/webhooks/${endpoint.id}`, { token, body: { active: false } })).json.active,
    ).toBe(false);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(0);
    await call(ctx.app, "PUT", `/api/webhooks/${endpoint.id}`, { token, body: { active: true } });
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "again" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
    expect((await call(ctx.app, "DELETE", `/api/webhooks/${endpoint.id}`, { token })).status).toBe(200);
    expect(await ctx.db.select().from(webhookDeliveries)).toHaveLength(0);
    expect((await call(ctx.app, "DELETE", `/api/webhooks/${endpoint.id}`, { token })).json).toEqual({
      error: "ERR_NO_WEBHOOK_FOUND",
      message: "Webhook not found.",
    });
  });
});
