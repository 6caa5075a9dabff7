// @engine each
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
import { type Config, loadConfig } from "../src/config";
import type { HostResolver } from "../src/http/host-resolver";
import { isInternalAddress } from "../src/http/internal-address";
import { TARGET_REFUSED } from "../src/modules/webhooks/deliver";
import { checkTarget } from "../src/modules/webhooks/target-check";
import { call, createSandboxConnection, fakeResolver, loginAs, makeTestApp, type TestContext } from "./helpers";

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

/** An app whose webhooks may reach the local receivers above, unless `overrides` say otherwise. */
async function setup(overrides: Partial<Config> = {}, resolver?: HostResolver) {
  const ctx = await makeTestApp({ webhookAllowPrivate: true, ...overrides }, { resolver });
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

  test("an endpoint added after a ticket was created reports that ticket's first status change from the status it had", async () => {
    const { ctx, token, conn } = await setup();
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    const ticketId = (await firstRow(ctx.db.select().from(tickets)))!.id;
    // Moved while nothing listened: the status kept for webhooks is not the ticket's any more.
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token, body: { status: "open" } });
    await settle();
    const hook = receiver([200]);
    await addEndpoint(ctx, token, hook.url, ["ticket.status"]);
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token, body: { status: "closed" } });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received.map((r) => JSON.parse(r.body).data).map((d) => [d.previousStatus, d.status])).toEqual([
      ["open", "closed"],
    ]);
  });

  test("a delivery recorded without its job (a stop in between) is queued again at the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-hooks-"));
    const databasePath = join(dir, "db.sqlite");
    const hook = receiver([200]);
    const first = await makeTestApp({ databasePath, webhookAllowPrivate: true });
    const { token } = await loginAs(first, { profile: "admin" });
    const endpoint = await addEndpoint(first, token, hook.url, ["message.received"]);
    await first.db
      .insert(webhookDeliveries)
      .values({ endpointId: endpoint.id, event: "message.received", dedupeKey: "msg:1", body: "{}" });
    await closeDatabase(first.db);
    const second = await makeTestApp({ databasePath, webhookAllowPrivate: true });
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

/** A public address for names to resolve to (nothing is sent there: tests only resolve it). */
const PUBLIC = "93.184.215.14";
/** A public address the tests give this machine's network interface. */
const OWN = "81.2.69.160";
const PRIVATE_TEXT = "The webhook URL must point to a public address, not to this server or a private network.";

async function create(ctx: TestContext, token: string, url: string) {
  return await call(ctx.app, "POST", "/api/webhooks", { token, body: { url, events: ["message.received"] } });
}

/** A port nothing listens on. */
function closedPort() {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const { port } = server;
  server.stop(true);
  return port;
}

describe("webhook targets", () => {
  test("a webhook to a loopback, link-local or private address is refused at creation, in any spelling", async () => {
    const { ctx, token } = await setup({ webhookAllowPrivate: false });
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://127.8.9.10/",
      "http://localhost:3000/",
      "http://LOCALHOST./",
      "http://api.localhost/",
      "http://[::1]:8080/",
      "http://0.0.0.0/",
      "http://0/",
      "http://[::]/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/",
      "http://10.0.0.5/",
      "http://172.16.3.4/",
      "http://172.31.255.255/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://[fc00::1]/",
      "http://[fd12:3456::1]/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[ff02::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[64:ff9b::a00:1]/",
      "http://2130706433/",
      "http://017700000001/",
      "http://0177.0.0.1/",
      "http://0x7f.1/",
      "http://0x7f000001/",
      "http://127.1/",
      "https://%31%32%37.0.0.1/",
    ]) {
      const res = await create(ctx, token, url);
      expect([url, res.status, res.json]).toEqual([
        url,
        400,
        { error: "ERR_WEBHOOK_URL_PRIVATE", message: PRIVATE_TEXT },
      ]);
    }
    expect((await call(ctx.app, "GET", "/api/webhooks", { token })).json).toEqual([]);
  });

  test("changing a webhook's URL to an internal address is refused and keeps the URL it had", async () => {
    const { ctx, token } = await setup({ webhookAllowPrivate: false });
    const endpoint = (await create(ctx, token, `http://${PUBLIC}/hook`)).json;
    const res = await call(ctx.app, "PUT", `/api/webhooks/${endpoint.id}`, {
      token,
      body: { url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(res).toMatchObject({ status: 400, json: { error: "ERR_WEBHOOK_URL_PRIVATE" } });
    expect((await call(ctx.app, "GET", "/api/webhooks", { token })).json[0].url).toBe(`http://${PUBLIC}/hook`);
  });

  test("a name resolving to an internal address, or to this server's own, is refused at creation; a public one or one not resolving yet is accepted", async () => {
    const resolver = fakeResolver(
      {
        "split.example.com": [PUBLIC, "10.0.0.7"],
        "inside.example.com": ["::ffff:192.168.0.10"],
        "self.example.com": [OWN],
        "hooks.example.com": [PUBLIC],
        "v6.example.com": ["2606:4700:4700::1111"],
      },
      [OWN],
    );
    const { ctx, token } = await setup({ webhookAllowPrivate: false }, resolver);
    for (const url of [
      "https://split.example.com/hook",
      "https://inside.example.com/hook",
      "https://self.example.com/hook",
      `http://${OWN}:8080/hook`,
      `http://[::ffff:${OWN}]/hook`,
    ])
      expect([url, (await create(ctx, token, url)).json.error]).toEqual([url, "ERR_WEBHOOK_URL_PRIVATE"]);
    for (const url of [
      "https://hooks.example.com/hook",
      "https://v6.example.com/hook",
      "https://not-yet.example.com/hook",
      `http://${PUBLIC}:8080/hook`,
    ])
      expect([url, (await create(ctx, token, url)).status]).toEqual([url, 200]);
  });

  test("a webhook whose name resolves to an internal address is refused at delivery with a generic error", async () => {
    const names: Record<string, string[]> = { "open.example.com": [PUBLIC], "closed.example.com": [PUBLIC] };
    const { ctx, token, conn } = await setup({ webhookAllowPrivate: false }, fakeResolver(names));
    const hook = receiver([200]);
    const port = new URL(hook.url).port;
    await addEndpoint(ctx, token, `http://open.example.com:${port}/hook`, ["message.received"]);
    await addEndpoint(ctx, token, `http://closed.example.com:${closedPort()}/hook`, ["message.received"]);
    // Both names now point at this machine: one where a server answers, one where nothing listens.
    names["open.example.com"] = ["127.0.0.1"];
    names["closed.example.com"] = [PUBLIC, "127.0.0.1"];
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    ctx.clock.advance(RETRY_BASE_MS);
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(0);
    const { deliveries } = (await call(ctx.app, "GET", "/api/webhooks/deliveries", { token })).json;
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({
        status: "pending",
        attempts: 2,
        lastStatusCode: null,
        lastError: TARGET_REFUSED,
      });
      expect(delivery.tries.map((a: { statusCode: number | null; error: string }) => [a.statusCode, a.error])).toEqual([
        [null, TARGET_REFUSED],
        [null, TARGET_REFUSED],
      ]);
    }
  });

  test("a delivery connects to the address it checked, keeping the name for Host and the TLS certificate", async () => {
    const resolver = fakeResolver({
      "hooks.example.com": ["2606:4700:4700::1111", PUBLIC],
      "v6.example.com": ["2606:4700:4700::1111"],
    });
    const policy = { resolver, allowPrivate: false };
    expect(await checkTarget(new URL("https://Hooks.Example.com:8443/in?x=1"), policy)).toEqual({
      ok: true,
      connection: {
        url: `https://${PUBLIC}:8443/in?x=1`,
        host: "hooks.example.com:8443",
        serverName: "hooks.example.com",
      },
    });
    expect(await checkTarget(new URL("http://v6.example.com/in"), policy)).toEqual({
      ok: true,
      connection: { url: "http://[2606:4700:4700::1111]/in", host: "v6.example.com", serverName: undefined },
    });
    expect(await checkTarget(new URL(`https://${PUBLIC}/in`), policy)).toEqual({
      ok: true,
      connection: { url: `https://${PUBLIC}/in` },
    });
  });

  test("a redirect is a failed attempt and is not followed", async () => {
    const { ctx, token, conn } = await setup();
    const inside = receiver([200]);
    const redirecting = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(null, { status: 302, headers: { location: inside.url } }),
    });
    servers.push(redirecting);
    await addEndpoint(ctx, token, `http://127.0.0.1:${redirecting.port}/hook`, ["message.received"]);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(inside.received).toHaveLength(0);
    const log = await call(ctx.app, "GET", "/api/webhooks/deliveries", { token });
    expect(log.json.deliveries[0]).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: "HTTP 302" });
  });

  test("WEBHOOK_ALLOW_PRIVATE=1 allows internal targets", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-hooks-"));
    expect(loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: "1" }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir }).webhookAllowPrivate).toBe(false);
    const { ctx, token, conn } = await setup(
      { webhookAllowPrivate: true },
      fakeResolver({ "inside.example.com": ["127.0.0.1"] }),
    );
    const hook = receiver([200]);
    await addEndpoint(ctx, token, hook.url, ["message.received"]);
    await addEndpoint(ctx, token, `http://inside.example.com:${new URL(hook.url).port}/named`, ["message.received"]);
    expect((await create(ctx, token, "http://169.254.169.254/latest/meta-data/")).status).toBe(200);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await settle();
    await ctx.deps.jobs.tick();
    expect(hook.received).toHaveLength(1);
  });

  test("addresses inside are recognised in every IPv4 and IPv6 form; public ones are not", () => {
    const inside = [
      "127.0.0.1",
      "0.0.0.0",
      "10.255.0.1",
      "100.127.255.255",
      "169.254.169.254",
      "172.16.0.1",
      "192.168.99.1",
      "198.18.0.1",
      "224.0.0.251",
      "240.0.0.1",
      "::",
      "::1",
      "0:0:0:0:0:0:0:1",
      "fe80::1",
      "fe80::1%eth0",
      "fc00::1",
      "fdff::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "64:ff9b::7f00:1",
      "2002:a9fe:a9fe::1",
      "2001:db8::1",
      "not an address",
    ];
    const outside = [
      "8.8.8.8",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "2002:808:808::1",
    ];
    expect(inside.filter((a) => !isInternalAddress(a))).toEqual([]);
    expect(outside.filter((a) => isInternalAddress(a))).toEqual([]);
    expect(isInternalAddress("::ffff:81.2.69.160", [OWN])).toBe(true);
  });
});
