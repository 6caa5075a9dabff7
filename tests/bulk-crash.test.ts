// @engine each
// @group processes
import { waitFor } from "./wait-for";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { massMessages } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const APP = join(import.meta.dir, "bulk-app-process.ts");
let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

describe("bulk campaigns survive a crash", () => {
  test("kill -9 in the middle of a 50-recipient campaign, then a restart: every recipient gets exactly one message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-bulk-crash-"));
    mkdirSync(join(dir, "media"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const apps: Subprocess[] = [];
    cleanup.push(async () => {
      for (const app of apps) app.kill("SIGKILL");
      await Promise.all(apps.map((app) => app.exited));
      rmSync(dir, { recursive: true, force: true });
    });
    // The campaign is set up through the API; this process's runner never starts, so it sends nothing itself.
    const ctx = await makeTestApp(paths);
    const admin = (await loginAs(ctx, { profile: "admin" })).token;
    const w = await createSandboxConnection(ctx);
    await call(ctx.app, "POST", "/api/settingsMessage", {
      token: admin,
      body: { whatsappId: w.id, limit: 500, minutes: 0, seconds: 1 },
    });
    const phones = Array.from({ length: 50 }, (_, i) => `55119${String(70000000 + i)}`);
    const stored = await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: phones.map((phone) => ({ message: `Oferta para ${phone}`, phone, whatsappId: w.id })),
    });
    expect(stored.status).toBe(200);

    const env = {
      ...process.env,
      DB_PATH: paths.databasePath,
      // The suite's PostgreSQL run: the database this process's app was given.
      ...(ctx.deps.config.databaseUrl ? { DB_URL: ctx.deps.config.databaseUrl } : {}),
      DATA_DIR: dir,
      CLOCK_ORIGIN: String(Date.now()),
      SPEED: "20",
    };
    const start = () => {
      const app = Bun.spawn([process.execPath, APP], { env, stdout: "ignore", stderr: "inherit" });
      apps.push(app);
      return app;
    };
    const sent = async () => await ctx.sandbox.network.outbox(w.id);
    const first = start();
    await waitFor(async () => (await sent()).length >= 15);
    first.kill("SIGKILL");
    await first.exited;
    const atCrash = (await sent()).length;
    expect(atCrash).toBeLessThan(50);

    start();
    const statuses = async () =>
      (await ctx.db.select({ status: massMessages.status }).from(massMessages)).map((r) => r.status);
    await waitFor(async () => (await statuses()).every((s) => s === "sent"));
    const peers = (await sent()).map((m) => m.peer);
    expect(peers.length).toBe(50);
    expect(new Set(peers).size).toBe(50);
    expect([...peers].sort()).toEqual([...phones].sort());
  }, 60_000);
});
