// @engine each
// @group processes
import { waitFor } from "../wait-for";
import { closeDatabase, first, one } from "../../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/log";
import { openStorage } from "../../src/ops/storage";
import { inboundJournal, messages, waAuthCreds, connections } from "../../src/db/tables";
import { ownDatabase } from "../helpers";
import { FAKE_ROOT_PUBLIC_KEY, FakeWa } from "./fakewa/server";

const APP = join(import.meta.dir, "fakewa/app-process.ts");
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A database with one Baileys connection, read from this process while the app's process writes it. */
async function setup() {
  const fake = new FakeWa();
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-crash-"));
  const dbPath = join(dir, "zapdesk.sqlite");
  // In the suite's PostgreSQL run both processes use a PostgreSQL database of their own instead of the file.
  const { databaseUrl } = await ownDatabase();
  const db = await openStorage({ databasePath: dbPath, dataDir: dir, databaseUrl }, createLogger("silent"));
  const conn = await one(db.insert(connections).values({ name: "Main", provider: "baileys" }).returning());
  const apps: Subprocess[] = [];
  cleanup.push(async () => {
    for (const app of apps) app.kill("SIGKILL");
    await Promise.all(apps.map((app) => app.exited));
    fake.stop();
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });
  const row = async () => (await first(db.select().from(connections).where(eq(connections.id, conn.id))))!;
  /** Starts the app's process; it connects with the stored credentials, or shows a QR the fake phone scans. */
  const start = async (env: Record<string, string> = {}) => {
    const app = Bun.spawn([process.execPath, APP], {
      env: {
        ...process.env,
        ...env,
        FAKEWA_URL: fake.url,
        FAKEWA_ROOT: FAKE_ROOT_PUBLIC_KEY,
        DB_PATH: dbPath,
        ...(databaseUrl ? { DB_URL: databaseUrl } : {}),
        MEDIA_DIR: join(dir, "media"),
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    apps.push(app);
    const logins = fake.logins;
    const paired = !!(await first(db.select().from(waAuthCreds).where(eq(waAuthCreds.whatsappId, conn.id))));
    if (!paired) fake.scan(await waitFor(async () => (await row()).status === "qrcode" && (await row()).qrcode));
    await waitFor(() => fake.logins > logins || app.exitCode !== null);
    if (app.exitCode !== null) throw new Error(`the app exited with ${app.exitCode}`);
    return app;
  };
  const storedWids = async () =>
    (await db.select({ wid: messages.wid }).from(messages).orderBy(messages.id)).map((m) => m.wid);
  const journaled = async () =>
    (await db.select({ payload: inboundJournal.payload }).from(inboundJournal)).map((r) => r.payload);
  return { fake, db, start, storedWids, journaled };
}

function once(wids: string[]) {
  return wids.length === new Set(wids).size;
}

describe("inbound messages survive a stop and a crash", () => {
  /** Delivers 50 messages from one customer and waits until the app has received (and receipted) them all. */
  async function backlog(ctx: Awaited<ReturnType<typeof setup>>) {
    const ids = Array.from({ length: 50 }, (_, i) => `BL-${i}`);
    for (const id of ids) ctx.fake.deliver("5511988887777", id, { conversation: `mensagem ${id}` });
    await waitFor(() => ids.every((id) => ctx.fake.receipted.has(id)));
    expect((await ctx.storedWids()).length).toBeLessThan(50);
    return ids;
  }

  test("SIGTERM with a backlog of 50 received messages stores them all before the process ends", async () => {
    const ctx = await setup();
    const app = await ctx.start({ HANDLE_DELAY_MS: "10" });
    const ids = await backlog(ctx);
    app.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    const wids = await ctx.storedWids();
    expect(new Set(wids)).toEqual(new Set(ids));
    expect(once(wids)).toBe(true);
  }, 20_000);

  test("SIGTERM whose drain runs out of time keeps the rest of the backlog, stored once after the restart", async () => {
    const ctx = await setup();
    const app = await ctx.start({ HANDLE_DELAY_MS: "10", DRAIN_TIMEOUT_MS: "150" });
    const ids = await backlog(ctx);
    app.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    const stored = new Set(await ctx.storedWids());
    const kept = await ctx.journaled();
    expect(stored.size).toBeLessThan(50);
    expect(ids.filter((id) => !stored.has(id) && !kept.some((p) => p.includes(`"${id}"`)))).toEqual([]);

    const again = await ctx.start();
    await waitFor(async () => (await ctx.storedWids()).length >= 50);
    await waitFor(async () => (await ctx.journaled()).length === 0);
    const wids = await ctx.storedWids();
    expect(new Set(wids)).toEqual(new Set(ids));
    expect(once(wids)).toBe(true);
    again.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 20_000);

  test("kill -9 during a 400-message burst: after a restart every message is stored exactly once, each one receipted before the kill included", async () => {
    const ctx = await setup();
    const app = await ctx.start();
    const ids = Array.from({ length: 400 }, (_, i) => `K-${i}`);
    ids.forEach((id, i) =>
      ctx.fake.deliver(`55119${String(i % 20).padStart(8, "0")}`, id, { conversation: `burst ${id}` }),
    );
    await waitFor(() => ctx.fake.receipted.size >= 100);
    app.kill("SIGKILL");
    await app.exited;
    const receipted = [...ctx.fake.receipted];
    expect(receipted.length).toBeLessThan(400);

    const again = await ctx.start();
    await waitFor(async () => (await ctx.storedWids()).length >= 400, 15_000);
    await waitFor(async () => (await ctx.journaled()).length === 0);
    const wids = await ctx.storedWids();
    expect(new Set(wids)).toEqual(new Set(ids));
    expect(once(wids)).toBe(true);
    const stored = new Set(wids);
    expect(receipted.filter((id) => !stored.has(id))).toEqual([]);
    again.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 30_000);
});
