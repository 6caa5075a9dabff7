// @engine once
import { first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connections } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

describe("session actions", () => {
  test("POST starts, PUT shows a new QR, DELETE disconnects without restarting", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const status = async () =>
      (await first(ctx.db.select().from(connections).where(eq(connections.id, conn.id))))!.status;

    const put = await call(ctx.app, "PUT", `/api/whatsappsession/${conn.id}`, { token });
    expect(put.json).toEqual({ message: "Starting session." });
    expect(await status()).toBe("qrcode");
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/scan`, { token });
    expect(await status()).toBe("CONNECTED");

    const del = await call(ctx.app, "DELETE", `/api/whatsappsession/${conn.id}`, { token });
    expect(del.json).toEqual({ message: "Session disconnected." });
    expect(await status()).toBe("DISCONNECTED");
    const again = await call(ctx.app, "DELETE", `/api/whatsappsession/${conn.id}`, { token });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe("ERR_WAPP_NOT_INITIALIZED");

    const post = await call(ctx.app, "POST", `/api/whatsappsession/${conn.id}`, { token });
    expect(post.json).toEqual({ message: "Starting session." });
    expect(await status()).toBe("qrcode");
  });

  test("unknown connection → 404, bad id → 400, agents → 403", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    expect((await call(ctx.app, "POST", "/api/whatsappsession/999", { token })).status).toBe(404);
    expect((await call(ctx.app, "POST", "/api/whatsappsession/abc", { token })).status).toBe(400);
    const agent = await loginAs(ctx, { profile: "user" });
    expect((await call(ctx.app, "POST", "/api/whatsappsession/1", { token: agent.token })).status).toBe(403);
    expect((await call(ctx.app, "POST", "/api/system/restart", { token: agent.token })).status).toBe(403);
  });

  test("system restart stops and starts every connection", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const conn = await createSandboxConnection(ctx);
    const res = await call(ctx.app, "POST", "/api/system/restart", { token });
    expect(res.status).toBe(200);
    expect(typeof res.json.message).toBe("string");
    expect(await ctx.channels.isRunning(conn.id)).toBe(true);
    const statuses = ctx.hub.to("admins", "whatsappSession").map((e) => e.payload.session.status);
    expect(statuses.slice(-2)).toEqual(["OPENING", "CONNECTED"]);
  });
});
