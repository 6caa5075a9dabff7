// @engine once
import { waitFor } from "../wait-for";
import { type Db, first as firstRow, openDatabase, sqliteClient } from "../../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { BufferJSON } from "baileys";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaileysDriver, type SetTimer } from "../../src/channels/baileys/driver";
import { ConnectionManager } from "../../src/channels/manager";
import { runMigrations } from "../../src/db/migrate";
import { connections } from "../../src/db/tables";
import { LocalEventBus } from "../../src/events/bus";
import { createLogger } from "../../src/log";
import { connectionRecords } from "../../src/modules/connections/records";
import { RecordingHub } from "../../src/realtime/hub";
import { publishToBrowsers } from "../../src/realtime/listener";
import { FakeWa } from "./fakewa/server";
import { RecordingSink } from "./fakewa/sink";

const CONN = { id: 1, name: "Main", provider: "baileys" as const };
const HOUR = 3600_000;
const FIVE_MINUTES = 300_000;

/** Reconnect waits end at once in real time and move this clock forward by their length. */
class VirtualClock {
  t = Date.parse("2026-03-01T09:00:00Z");
  delays: number[] = [];
  now = () => this.t;
  setTimer: SetTimer = (fn, ms) => {
    this.delays.push(ms);
    const handle = setTimeout(() => {
      this.t += ms;
      fn();
    }, 0);
    return () => clearTimeout(handle);
  };
}

let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function newDriver(db: Db, fake: FakeWa, clock: VirtualClock, mediaDir: string) {
  return new BaileysDriver({
    db,
    mediaDir,
    log: createLogger(process.env.FAKEWA_LOG ? "debug" : "silent"),
    waWebSocketUrl: fake.url,
    version: [2, 3000, 1],
    setTimer: clock.setTimer,
    now: clock.now,
    socketConfig: { shouldSyncHistoryMessage: () => false, qrTimeout: 200 },
  });
}

function setup() {
  const fake = new FakeWa();
  const db = openDatabase(":memory:");
  runMigrations(db);
  sqliteClient(db).query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys')").run();
  const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-outage-"));
  const clock = new VirtualClock();
  const drivers: BaileysDriver[] = [];
  const driver = () => {
    const d = newDriver(db, fake, clock, mediaDir);
    drivers.push(d);
    return d;
  };
  cleanup.push(async () => {
    for (const d of drivers) await d.stop(CONN.id);
    fake.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });
  return { fake, db, clock, driver };
}

/** The parts of the credentials that make up the linked device's identity. */
function identity(db: Db) {
  const row = sqliteClient(db).query("SELECT creds FROM wa_auth_creds WHERE whatsapp_id = 1").get() as {
    creds: string;
  } | null;
  if (!row) return null;
  const creds = JSON.parse(row.creds, BufferJSON.reviver);
  return {
    me: creds.me.id,
    noise: Buffer.from(creds.noiseKey.public).toString("hex"),
    identity: Buffer.from(creds.signedIdentityKey.public).toString("hex"),
  };
}

describe("baileys driver through a long outage", () => {
  test("an hour without WhatsApp is retried with waits of at most 5 minutes, then reconnects with the same creds and no QR", async () => {
    const { fake, db, clock, driver: makeDriver } = setup();
    const driver = makeDriver();
    const sink = new RecordingSink();
    await driver.start(CONN, sink);
    fake.scan(await sink.until(() => sink.statuses.find((s) => s.status === "qrcode")?.info?.qr));
    await sink.until(() => sink.statuses.find((s) => s.status === "CONNECTED"));
    const paired = identity(db);
    const before = sink.statuses.length;
    const outageStart = clock.t;

    fake.setDown(true);
    await sink.until(() => clock.t - outageStart >= HOUR, 15_000);
    expect(driver.isRunning(CONN.id)).toBe(true);
    fake.setDown(false);
    await sink.until(() => sink.statuses.slice(before).find((s) => s.status === "CONNECTED"), 15_000);

    const during = sink.statuses.slice(before);
    const timeouts = during.filter((s) => s.status === "TIMEOUT");
    expect(fake.refused).toBeGreaterThanOrEqual(15);
    expect(timeouts.length).toBeGreaterThanOrEqual(15);
    expect(timeouts.map((s) => s.info?.retries)).toEqual(timeouts.map((_, i) => i + 1));
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(FIVE_MINUTES);
    expect(Math.max(...clock.delays)).toBeGreaterThan(FIVE_MINUTES * 0.75);
    expect(during.some((s) => s.status === "DISCONNECTED" || s.status === "qrcode")).toBe(false);
    expect(sink.lastStatus()).toEqual({ status: "CONNECTED", info: { qr: "", number: fake.phone, retries: 0 } });
    expect(identity(db)).toEqual(paired);
  });

  test("a connection stopped while reconnecting resumes when the server starts again", async () => {
    const { fake, db, driver: makeDriver } = setup();
    const log = createLogger("silent");
    const inbound = {
      onMessage: async () => {},
      wantsMedia: async () => false,
      onMedia: async () => {},
      async onAck() {},
      async onRevoked() {},
      async onEdit() {},
      async onReaction() {},
      onCall: async () => {},
      async onContacts() {},
      async onSendRejected() {},
      async onPresence() {},
    };
    const row = async () => (await firstRow(db.select().from(connections).where(eq(connections.id, CONN.id))))!;

    const first = new ConnectionManager({ db, records: connectionRecords(db, new LocalEventBus(log)), log }).register(
      makeDriver(),
    );
    first.setInbound(inbound);
    await first.start(CONN.id);
    fake.scan(await waitFor(async () => (await row()).status === "qrcode" && (await row()).qrcode));
    await waitFor(async () => (await row()).status === "CONNECTED");
    const paired = identity(db);

    fake.setDown(true);
    await waitFor(async () => (await row()).status === "TIMEOUT" && (await row()).retries >= 3);
    await first.stopAll();
    expect((await row()).status).toBe("TIMEOUT");

    fake.setDown(false);
    const hub = new RecordingHub();
    const events = new LocalEventBus(log);
    publishToBrowsers(events, hub);
    const second = new ConnectionManager({ db, records: connectionRecords(db, events), log }).register(makeDriver());
    second.setInbound(inbound);
    await second.startAll();
    await waitFor(async () => (await row()).status === "CONNECTED");
    expect(await row()).toMatchObject({ retries: 0, number: fake.phone, qrcode: "" });
    expect(hub.named("whatsappSession").map((e) => e.payload.session.status)).not.toContain("qrcode");
    expect(identity(db)).toEqual(paired);
  });
});
