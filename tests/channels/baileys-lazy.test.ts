// @engine once
import { waitFor } from "../wait-for";
import { closeDatabase, first, one } from "../../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LazyBaileysDriver } from "../../src/channels/baileys/lazy";
import { composeDeps } from "../../src/compose";
import { connections } from "../../src/db/tables";
import { createLogger } from "../../src/log";
import { RecordingHub } from "../../src/realtime/hub";
import { systemClock } from "../../src/shared/clock";
import { ownDatabase, testConfig, testDatabase } from "../helpers";
import { FakeWa } from "./fakewa/server";

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

describe("the Baileys driver is loaded on first use", () => {
  test("until a connection starts nothing is loaded: nothing runs, stops do nothing, message ids are still made", async () => {
    const db = await testDatabase();
    cleanup.push(() => closeDatabase(db));
    const driver = new LazyBaileysDriver({ db, mediaDir: "/nonexistent", log: createLogger("silent") });

    expect(driver.isRunning(1)).toBe(false);
    await driver.stop(1);
    const ids = new Set([driver.newMessageId(1), driver.newMessageId(1)]);

    expect(driver.loaded).toBe(false);
    expect(ids.size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^3EB0[0-9A-F]{18}$/);
  });

  test("a Baileys connection that exists at boot starts its session, and one created later starts too", async () => {
    const fake = new FakeWa();
    const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-lazy-"));
    const { db, channels } = await composeDeps({
      config: testConfig({ mediaDir, dataDir: mediaDir, ...(await ownDatabase()) }),
      hub: new RecordingHub(),
      log: createLogger("silent"),
      clock: systemClock,
      singleNode: true,
      baileys: {
        waWebSocketUrl: fake.url,
        fetchLatestVersion: false,
        socketConfig: { shouldSyncHistoryMessage: () => false, qrTimeout: 200 },
      },
    });
    cleanup.push(async () => {
      await channels.stopAll();
      fake.stop();
      await closeDatabase(db);
      rmSync(mediaDir, { recursive: true, force: true });
    });
    const status = async (id: number) =>
      (await first(db.select().from(connections).where(eq(connections.id, id))))?.status;
    const atBoot = await one(db.insert(connections).values({ name: "Boot", provider: "baileys" }).returning());

    await channels.startAll();
    await waitFor(async () => (await status(atBoot.id)) === "qrcode");
    const later = await one(db.insert(connections).values({ name: "Later", provider: "baileys" }).returning());
    await channels.start(later.id);

    await waitFor(async () => (await status(later.id)) === "qrcode");
    expect(await channels.isRunning(atBoot.id)).toBe(true);
    expect(await channels.isRunning(later.id)).toBe(true);
  });
});
