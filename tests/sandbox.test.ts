// @engine once
import { closeDatabase, first as firstRow, one } from "../src/db/client";
import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { messages, queues, sandboxMessages, tickets, connections } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("sandbox API", () => {
  test("is admin only, and 403 ERR_SANDBOX_DISABLED when the sandbox is off", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const agent = await loginAs(ctx, { profile: "user" });
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token: agent.token,
      body: { from: "5511988887777", body: "x" },
    });
    expect(res.status).toBe(403);
    expect((await call(ctx.app, "GET", `/api/sandbox/${conn.id}/outbox`)).status).toBe(401);

    const off = await makeTestApp({ sandbox: false });
    const admin = await loginAs(off, { profile: "admin" });
    const refused = await call(off.app, "GET", "/api/sandbox/1/outbox", { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("ERR_SANDBOX_DISABLED");
  });

  test("admins are told when a simulated conversation changes (message, acks, read), so the phone page needs no polling", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx, { greetingMessage: "Hello" });
    const from = "5511977776666";
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, { token, body: { from, body: "Oi" } });
    const afterInbound = ctx.hub.to("admins", "sandbox").length;
    expect(afterInbound).toBeGreaterThanOrEqual(2);
    expect(ctx.hub.to("admins", "sandbox")[0]!.payload).toEqual({ whatsappId: conn.id, peer: from });
    await ctx.sandbox.network.settle();
    const afterAcks = ctx.hub.to("admins", "sandbox").length;
    expect(afterAcks).toBeGreaterThan(afterInbound);
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/read`, { token, body: { to: from } });
    expect(ctx.hub.to("admins", "sandbox").length).toBe(afterAcks + 1);
    expect(ctx.hub.to("all", "sandbox")).toHaveLength(0);
  });

  test("in tests, ack steps start no timer and wait for settle(), so nothing fires after a test ends", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx, { greetingMessage: "Hello" });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const timers = spyOn(globalThis, "setTimeout");
    try {
      await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
        token,
        body: { from: "5511977775555", body: "Oi" },
      });
      const greeting = async () => (await firstRow(ctx.db.select().from(messages).where(eq(messages.fromMe, true))))!;
      const before = (await greeting()).ack;
      await ctx.sandbox.network.settle();
      expect((await greeting()).ack).toBeGreaterThan(before);
      expect(timers.mock.calls.filter(([, ms]) => ms === 300 || ms === 1000 || ms === 2000)).toHaveLength(0);
    } finally {
      timers.mockRestore();
    }
  });

  test("scan pairs a connection waiting for its QR", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx, { scan: false });
    expect(conn.status).toBe("qrcode");
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/scan`, { token });
    expect(res.status).toBe(200);
    expect((await firstRow(ctx.db.select().from(connections).where(eq(connections.id, conn.id))))!.status).toBe(
      "CONNECTED",
    );
  });

  test("odd input is refused with 400/404, never 500", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const bad = [
      ["POST", "/api/sandbox/abc/scan", undefined],
      ["POST", `/api/sandbox/${conn.id}/inbound`, { from: "not a phone" }],
      ["POST", `/api/sandbox/${conn.id}/inbound`, { body: "no from" }],
      ["POST", `/api/sandbox/${conn.id}/inbound`, { from: "5511", mediaType: "hologram" }],
      ["POST", `/api/sandbox/${conn.id}/inbound`, { from: "5511", id: "bad id with spaces" }],
      ["POST", `/api/sandbox/${conn.id}/read`, { to: 5 }],
      ["GET", `/api/sandbox/${conn.id}/outbox?to=x`, undefined],
    ] as const;
    for (const [method, path, body] of bad) {
      const res = await call(ctx.app, method, path, { token, body });
      expect(res.status).toBe(400);
    }
    expect((await call(ctx.app, "POST", "/api/sandbox/999/scan", { token })).status).toBe(404);
    const unpaired = await createSandboxConnection(ctx, { scan: false });
    const notReady = await call(ctx.app, "POST", `/api/sandbox/${unpaired.id}/inbound`, {
      token,
      body: { from: "5511988887777", body: "x" },
    });
    expect(notReady.status).toBe(400);
    expect(notReady.json.error).toBe("ERR_WAPP_NOT_INITIALIZED");
  });

  test("inbound media is written to the media directory and stored on the message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-sandbox-"));
    dirs.push(dir);
    const ctx = await makeTestApp({ mediaDir: dir });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token,
      body: {
        from: "5511988887777",
        mediaType: "image",
        mediaBase64: Buffer.from("png-bytes").toString("base64"),
        fileName: "photo.png",
      },
    });
    expect(res.status).toBe(200);
    const msg = (await firstRow(ctx.db.select().from(messages).where(eq(messages.wid, res.json.id))))!;
    expect(msg.mediaType).toBe("image");
    expect(msg.body).toBe("photo.png");
    expect(msg.mediaMime).toBe("image/png");
    expect(existsSync(join(dir, msg.mediaUrl!))).toBe(true);
  });

  test("a sticker sent without a file name is stored as a WebP image, not a .bin file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-sandbox-"));
    dirs.push(dir);
    const ctx = await makeTestApp({ mediaDir: dir });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token,
      body: {
        from: "5511988887777",
        mediaType: "sticker",
        mediaBase64: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==",
      },
    });
    expect(res.status).toBe(200);
    const msg = (await firstRow(ctx.db.select().from(messages).where(eq(messages.wid, res.json.id))))!;
    expect(msg.mediaType).toBe("sticker");
    expect(msg.fileName).toBe("sticker.webp");
    expect(msg.mediaMime).toBe("image/webp");
    expect(msg.mediaUrl).toEndWith(".webp");
  });

  test("the arrivals of a burst are each recorded once on the simulated phones, an id sent twice in it once", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const post = (body: Record<string, string>) =>
      call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, { token, body });
    const answers = await Promise.all([
      post({ from: "5511900000001", body: "a", id: "TWICE1" }),
      post({ from: "5511900000002", body: "b", id: "ONCE2" }),
      post({ from: "5511900000001", body: "a", id: "TWICE1" }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const recorded = await ctx.db.select().from(sandboxMessages).where(eq(sandboxMessages.direction, "in"));
    expect(recorded.map((row) => row.wid).sort()).toEqual(["ONCE2", "TWICE1"]);
    const stored = await ctx.db.select().from(messages).where(eq(messages.fromMe, false));
    expect(stored.map((message) => message.wid).sort()).toEqual(["ONCE2", "TWICE1"]);
    ctx.sandbox.network.cancelAll();
  });

  test("a restart on the same database keeps the connection paired and the outbox", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-sandbox-"));
    dirs.push(dir);
    const overrides = { databasePath: join(dir, "db.sqlite"), mediaDir: join(dir, "media") };
    const first = await makeTestApp(overrides);
    const { token } = await loginAs(first, { profile: "admin" });
    const q1 = await one(first.db.insert(queues).values({ name: "A", color: "#111111" }).returning());
    const q2 = await one(first.db.insert(queues).values({ name: "B", color: "#222222" }).returning());
    const conn = await createSandboxConnection(first, { greetingMessage: "Hi", queueIds: [q1.id, q2.id] });
    await call(first.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token,
      body: { from: "5511988887777", body: "Oi" },
    });
    await first.channels.stopAll();
    first.sandbox.network.cancelAll();
    await closeDatabase(first.db);

    const second = await makeTestApp(overrides);
    await second.channels.startAll();
    expect((await firstRow(second.db.select().from(connections).where(eq(connections.id, conn.id))))!.status).toBe(
      "CONNECTED",
    );
    const { token: token2 } = await loginAs(second, { profile: "admin", email: "again@example.com" });
    const out = await call(second.app, "GET", `/api/sandbox/${conn.id}/outbox?to=5511988887777`, { token: token2 });
    expect(out.json).toHaveLength(1);
    expect(out.json[0]).toMatchObject({ to: "5511988887777", mediaType: "chat", quotedId: null });
    await call(second.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token: token2,
      body: { from: "5511988887777", body: "2" },
    });
    expect((await firstRow(second.db.select().from(tickets)))!.queueId).toBe(q2.id);
    second.sandbox.network.cancelAll();
    await closeDatabase(second.db);
  });
});
