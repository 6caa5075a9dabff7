// @engine once
import { openDatabase, sqliteClient } from "../../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaileysDriver } from "../../src/channels/baileys/driver";
import { BUNDLED_VERSION, resolveWaVersion, type WaVersion } from "../../src/channels/baileys/version";
import { loadConfig } from "../../src/config";
import { runMigrations } from "../../src/db/migrate";
import { createLogger } from "../../src/log";
import { FakeWa } from "./fakewa/server";
import { RecordingSink } from "./fakewa/sink";

let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger("debug", (line) => lines.push(line)) };
}

describe("WhatsApp Web version", () => {
  test("WA_VERSION wins and nothing is fetched", async () => {
    const { lines, log } = capture();
    let fetched = false;
    const version = await resolveWaVersion({
      pinned: [2, 3000, 1023456789],
      fetchLatest: async () => ((fetched = true), { version: [2, 3000, 9], isLatest: true }),
      log,
    });
    expect(version).toEqual([2, 3000, 1023456789]);
    expect(fetched).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("2.3000.1023456789 (WA_VERSION)");
  });

  test("otherwise the latest published version is used", async () => {
    const { lines, log } = capture();
    expect(
      await resolveWaVersion({ fetchLatest: async () => ({ version: [2, 3000, 1099999999], isLatest: true }), log }),
    ).toEqual([2, 3000, 1099999999]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("INFO WhatsApp Web version 2.3000.1099999999 (latest published)");
  });

  test("without network the bundled version is used after one info line, and a silent network is cut short", async () => {
    const { lines, log } = capture();
    const offline = async () => ({
      version: BUNDLED_VERSION,
      isLatest: false,
      error: new Error("getaddrinfo ENOTFOUND web.whatsapp.com"),
    });
    expect(await resolveWaVersion({ fetchLatest: offline, log })).toEqual(BUNDLED_VERSION);
    const silent = (signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    expect(await resolveWaVersion({ fetchLatest: silent, timeoutMs: 5, log })).toEqual(BUNDLED_VERSION);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("INFO WhatsApp Web version");
    expect(lines[0]).toContain("bundled; the latest could not be read: getaddrinfo ENOTFOUND");
    expect(lines[1]).toContain("bundled");
  });

  test("WA_VERSION is read from the environment, and a malformed one stops the start", () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    expect(loadConfig({ DATA_DIR: dir, WA_VERSION: " 2.3000.1023456789 " }).waVersion).toEqual([2, 3000, 1023456789]);
    expect(loadConfig({ DATA_DIR: dir }).waVersion).toBeUndefined();
    for (const bad of ["2.3000", "v2.3000.1", "2,3000,1", "latest"]) {
      expect(() => loadConfig({ DATA_DIR: dir, WA_VERSION: bad })).toThrow(
        /WA_VERSION must be a WhatsApp Web version like 2\.3000\.1023456789/,
      );
    }
  });

  test("WA_SOCKET_URL and WA_CERT_ROOT are read from the environment; a key without an address, or malformed ones, stop the start", () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const key = Buffer.alloc(32, 7).toString("base64");
    const config = loadConfig({ DATA_DIR: dir, WA_SOCKET_URL: " ws://127.0.0.1:9/ws/chat ", WA_CERT_ROOT: key });
    expect(config.waSocketUrl).toBe("ws://127.0.0.1:9/ws/chat");
    expect(config.waCertRoot).toEqual(Buffer.alloc(32, 7));
    expect(loadConfig({ DATA_DIR: dir, WA_SOCKET_URL: "wss://proxy.example/ws/chat" }).waCertRoot).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir })).not.toHaveProperty("waSocketUrl");
    expect(() => loadConfig({ DATA_DIR: dir, WA_CERT_ROOT: key })).toThrow(
      /WA_CERT_ROOT is only used with WA_SOCKET_URL/,
    );
    for (const bad of ["https://web.whatsapp.com/ws/chat", "127.0.0.1:9", "ws//x"])
      expect(() => loadConfig({ DATA_DIR: dir, WA_SOCKET_URL: bad })).toThrow(
        /WA_SOCKET_URL must be a ws:\/\/ or wss:\/\//,
      );
    for (const bad of ["abc", Buffer.alloc(31).toString("base64"), `${key}!`])
      expect(() => loadConfig({ DATA_DIR: dir, WA_SOCKET_URL: "ws://127.0.0.1:9", WA_CERT_ROOT: bad })).toThrow(
        /WA_CERT_ROOT must be a 32-byte public key in base64/,
      );
  });

  test("a version WhatsApp rejects (405) ends DISCONNECTED with creds kept and says what to do; the next start reads the latest again", async () => {
    const fake = new FakeWa();
    const db = openDatabase(":memory:");
    runMigrations(db);
    sqliteClient(db).query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys')").run();
    const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-version-"));
    const { lines, log } = capture();
    let latest: WaVersion = [2, 3000, 100];
    let fetches = 0;
    const driver = new BaileysDriver({
      db,
      mediaDir,
      log,
      waWebSocketUrl: fake.url,
      fetchLatestVersion: async () => (fetches++, { version: latest, isLatest: true }),
      backoff: { baseMs: 5, maxMs: 10 },
      socketConfig: { shouldSyncHistoryMessage: () => false, qrTimeout: 200 },
    });
    cleanup.push(async () => {
      await driver.stop(1);
      fake.stop();
      rmSync(mediaDir, { recursive: true, force: true });
    });
    const sink = new RecordingSink();
    const conn = { id: 1, name: "Main", provider: "baileys" as const };
    await driver.start(conn, sink);
    fake.scan(await sink.until(() => sink.statuses.find((s) => s.status === "qrcode")?.info?.qr));
    await sink.until(() => sink.statuses.find((s) => s.status === "CONNECTED"));
    expect(fake.versions.at(-1)).toBe("2.3000.100");

    fake.minVersion = latest = [2, 3000, 200];
    fake.streamError(503);
    const ended = await sink.until(() => sink.lastStatus()?.status === "DISCONNECTED" && sink.lastStatus());
    expect(ended.info?.reason).toContain("set WA_VERSION to the current WhatsApp Web version or update Zapdesk");
    const line = lines.find((l) => l.includes("ERROR baileys connection ended"));
    expect(line).toContain('"code":405');
    expect(line).toContain('"version":"2.3000.100"');
    expect((sqliteClient(db).query("SELECT count(*) n FROM wa_auth_creds").get() as { n: number }).n).toBe(1);
    expect(driver.isRunning(1)).toBe(false);

    const before = sink.statuses.length;
    await driver.start(conn, sink);
    await sink.until(() => sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
    expect(fetches).toBe(2);
    expect(fake.versions.at(-1)).toBe("2.3000.200");
    expect(sink.statuses.slice(before).some((s) => s.status === "qrcode")).toBe(false);
  });
});
