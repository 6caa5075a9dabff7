import { type Db, openDatabase, sqliteClient } from "../../../src/db/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaileysDriver, type BaileysDriverOptions } from "../../../src/channels/baileys/driver";
import type { ConnectionRef } from "../../../src/channels/types";
import { runMigrations } from "../../../src/db/migrate";
import { createLogger } from "../../../src/log";
import { FakeWa } from "./server";
import { RecordingSink } from "./sink";

export const TEST_CONNECTION: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };

/**
 * A real Baileys driver aimed at the fake server, with test timings (short backoff, quick QRs, no wait for a
 * history the fake never sends) and its own media folder; `dispose` stops it and removes the folder.
 */
export function testDriver(db: Db, fake: FakeWa, opts: Partial<BaileysDriverOptions> = {}) {
  const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-baileys-"));
  const driver = new BaileysDriver({
    db,
    mediaDir,
    log: createLogger(process.env.FAKEWA_LOG ? "debug" : "silent"),
    waWebSocketUrl: fake.url,
    fetchLatestVersion: false,
    backoff: { baseMs: 20, maxMs: 100 },
    mediaTimeoutMs: 2000,
    socketConfig: { shouldSyncHistoryMessage: () => false, qrTimeout: 200 },
    ...opts,
  });
  const dispose = async () => {
    await driver.stop(TEST_CONNECTION.id);
    rmSync(mediaDir, { recursive: true, force: true });
  };
  return { driver, mediaDir, dispose };
}

/** A fake server, an in-memory database with connection 1, a test driver and a recording sink. */
export function driverOnFake(
  fakeOpts: ConstructorParameters<typeof FakeWa>[0] = {},
  driverOpts: Partial<BaileysDriverOptions> = {},
) {
  const fake = new FakeWa(fakeOpts);
  const db = openDatabase(":memory:");
  runMigrations(db);
  sqliteClient(db).query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys')").run();
  const { driver, mediaDir, dispose: stopDriver } = testDriver(db, fake, driverOpts);
  const sink = new RecordingSink();
  const dispose = async () => {
    await stopDriver();
    fake.stop();
  };
  return { fake, db, driver, sink, mediaDir, dispose };
}

/** Starts the connection, lets the fake phone scan its QR, and waits until it is CONNECTED. */
export async function pair(
  ctx: Pick<ReturnType<typeof driverOnFake>, "fake" | "driver" | "sink">,
  conn: ConnectionRef = TEST_CONNECTION,
) {
  await ctx.driver.start(conn, ctx.sink);
  const qr = await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "qrcode")?.info?.qr);
  ctx.fake.scan(qr);
  await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "CONNECTED"));
}
