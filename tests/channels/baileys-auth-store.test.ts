// @engine once
import { openDatabase, sqliteClient } from "../../src/db/client";
import { describe, expect, test } from "bun:test";
import { proto } from "baileys";
import { cachedKeyStore, useSqliteAuthState } from "../../src/channels/baileys/auth-store";
import { runMigrations } from "../../src/db/migrate";
import { TestClock } from "../helpers";

function setup() {
  const db = openDatabase(":memory:");
  runMigrations(db);
  sqliteClient(db)
    .query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys'), (2, 'Other', 'baileys')")
    .run();
  return db;
}

describe("baileys SQLite auth store", () => {
  test("creds and keys round-trip with Buffers intact", async () => {
    const db = setup();
    const a = await useSqliteAuthState(db, 1);
    await a.saveCreds();
    await a.state.keys.set({
      "pre-key": { "1": { public: Buffer.from([1, 2]), private: Buffer.from([3, 4]) } },
      session: { "5511_1.0": Buffer.from("session-bytes") as unknown as Uint8Array },
      "app-state-sync-key": { k1: { keyData: Buffer.from([9, 9]) } as proto.Message.IAppStateSyncKeyData },
    });
    const b = await useSqliteAuthState(db, 1);
    expect(Buffer.from(b.state.creds.noiseKey.private).equals(Buffer.from(a.state.creds.noiseKey.private))).toBe(true);
    const pre = await b.state.keys.get("pre-key", ["1", "2"]);
    expect(Object.keys(pre)).toEqual(["1"]);
    expect(Buffer.from(pre["1"]!.private).equals(Buffer.from([3, 4]))).toBe(true);
    const sync = await b.state.keys.get("app-state-sync-key", ["k1"]);
    expect(sync.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.k1!.keyData!).equals(Buffer.from([9, 9]))).toBe(true);
    expect(Object.keys(await (await useSqliteAuthState(db, 2)).state.keys.get("pre-key", ["1"]))).toEqual([]);
  });

  test("null deletes a key, and batched reads cover many ids", async () => {
    const db = setup();
    const a = await useSqliteAuthState(db, 1);
    const many: Record<string, { public: Buffer; private: Buffer }> = {};
    for (let i = 0; i < 1200; i++) many[String(i)] = { public: Buffer.from([i % 256]), private: Buffer.from([1]) };
    await a.state.keys.set({ "pre-key": many });
    expect(Object.keys(await a.state.keys.get("pre-key", Object.keys(many))).length).toBe(1200);
    await a.state.keys.set({ "pre-key": { "5": null } });
    expect((await a.state.keys.get("pre-key", ["5", "6"]))["5"]).toBeUndefined();
  });

  test("a set that fails half-way writes nothing", async () => {
    const db = setup();
    const a = await useSqliteAuthState(db, 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      Promise.resolve().then(() =>
        a.state.keys.set({
          session: { ok: Buffer.from([1]) as unknown as Uint8Array, bad: cyclic as unknown as Uint8Array },
        }),
      ),
    ).rejects.toThrow();
    expect(await a.state.keys.get("session", ["ok"])).toEqual({});
  });

  test("wipe deletes creds, keys and sent-message content of that connection only (the phone book is the app's)", async () => {
    const db = setup();
    const a = await useSqliteAuthState(db, 1);
    const b = await useSqliteAuthState(db, 2);
    await a.saveCreds();
    await b.saveCreds();
    await a.state.keys.set({ session: { s: Buffer.from([1]) as unknown as Uint8Array } });
    await b.state.keys.set({ session: { s: Buffer.from([2]) as unknown as Uint8Array } });
    sqliteClient(db)
      .query("INSERT INTO whatsapp_phonebook (whatsapp_id, jid, phone) VALUES (1, 'x@s.whatsapp.net', 'x')")
      .run();
    sqliteClient(db)
      .query("INSERT INTO wa_sent_messages (whatsapp_id, wid, content) VALUES (1, 'A', x'0a0161'), (2, 'B', x'0a0162')")
      .run();
    await a.wipe();
    const count = (sql: string) => (sqliteClient(db).query(sql).get() as { n: number }).n;
    expect(count("SELECT count(*) n FROM wa_auth_creds WHERE whatsapp_id = 1")).toBe(0);
    expect(count("SELECT count(*) n FROM wa_auth_keys WHERE whatsapp_id = 1")).toBe(0);
    expect(count("SELECT count(*) n FROM whatsapp_phonebook WHERE whatsapp_id = 1")).toBe(1);
    expect(count("SELECT count(*) n FROM wa_sent_messages WHERE whatsapp_id = 1")).toBe(0);
    expect(count("SELECT count(*) n FROM wa_sent_messages WHERE whatsapp_id = 2")).toBe(1);
    expect(count("SELECT count(*) n FROM wa_auth_creds WHERE whatsapp_id = 2")).toBe(1);
    expect(count("SELECT count(*) n FROM wa_auth_keys WHERE whatsapp_id = 2")).toBe(1);
    expect((await useSqliteAuthState(db, 1)).state.creds.registered).toBe(false);
  });

  test("writes arriving after a wipe are ignored", async () => {
    const db = setup();
    const a = await useSqliteAuthState(db, 1);
    await a.wipe();
    await a.saveCreds();
    await a.state.keys.set({ session: { late: Buffer.from([1]) as unknown as Uint8Array } });
    const count = (sql: string) => (sqliteClient(db).query(sql).get() as { n: number }).n;
    expect(count("SELECT count(*) n FROM wa_auth_creds")).toBe(0);
    expect(count("SELECT count(*) n FROM wa_auth_keys")).toBe(0);
  });

  test("keys written through the socket's cached store are in SQLite for the next start, and reads come from memory", async () => {
    const db = setup();
    const clock = new TestClock(0);
    const keys = cachedKeyStore((await useSqliteAuthState(db, 1)).state.keys, undefined, () => clock.now());
    await keys.set({
      session: { "5511_1.0": Buffer.from("s1") as unknown as Uint8Array },
      "pre-key": { "7": { public: Buffer.from([1]), private: Buffer.from([2]) } },
    });
    await keys.set({ "pre-key": { "7": null } });

    const restarted = (await useSqliteAuthState(db, 1)).state.keys;
    expect(Buffer.from((await restarted.get("session", ["5511_1.0"]))["5511_1.0"]!).toString()).toBe("s1");
    expect(await restarted.get("pre-key", ["7"])).toEqual({});

    sqliteClient(db).query("DELETE FROM wa_auth_keys").run();
    expect(Object.keys(await keys.get("session", ["5511_1.0"]))).toEqual(["5511_1.0"]);
    clock.advance(5 * 60_000);
    expect(await keys.get("session", ["5511_1.0"])).toEqual({});
  });
});
