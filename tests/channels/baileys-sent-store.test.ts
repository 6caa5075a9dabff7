// @engine once
import { openDatabase, sqliteClient } from "../../src/db/client";
import { describe, expect, test } from "bun:test";
import { proto } from "baileys";
import { SentMessageStore } from "../../src/channels/baileys/sent-store";
import { runMigrations } from "../../src/db/migrate";
import { TestClock } from "../helpers";

const DAY = 24 * 3600_000;

function setup() {
  const db = openDatabase(":memory:");
  runMigrations(db);
  sqliteClient(db)
    .query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys'), (2, 'Other', 'baileys')")
    .run();
  const clock = new TestClock(Date.parse("2026-03-01T09:00:00Z"));
  return { db, clock, store: new SentMessageStore(db, () => clock.now()) };
}

describe("sent-message content for retry receipts", () => {
  test("content comes back byte for byte, per connection", async () => {
    const { store } = setup();
    const image: proto.IMessage = {
      imageMessage: {
        url: "https://mmg.whatsapp.net/x",
        mediaKey: Buffer.from([1, 2, 3]),
        fileLength: 123_456,
        caption: "nota",
      },
      messageContextInfo: { messageSecret: Buffer.alloc(32, 7) },
    };
    await store.save(1, "3EB0A", image);
    const back = (await store.get(1, "3EB0A"))!;
    expect(Buffer.from(back.imageMessage!.mediaKey!)).toEqual(Buffer.from([1, 2, 3]));
    expect(Number(back.imageMessage!.fileLength)).toBe(123_456);
    expect(proto.Message.encode(back).finish()).toEqual(proto.Message.encode(image).finish());
    expect(await store.get(2, "3EB0A")).toBeUndefined();
    expect(await store.get(1, "unknown")).toBeUndefined();
  });

  test("sending again under the same id keeps the latest content", async () => {
    const { store } = setup();
    await store.save(1, "3EB0A", { conversation: "first" });
    await store.save(1, "3EB0A", { conversation: "second" });
    expect((await store.get(1, "3EB0A"))?.conversation).toBe("second");
  });

  test("content older than 30 days is pruned, at most once an hour while sending", async () => {
    const { store, clock } = setup();
    const MIN = 60_000;
    await store.save(1, "A", { conversation: "a" });
    clock.advance(30 * DAY - 10 * MIN);
    await store.save(1, "B", { conversation: "b" });
    expect(await store.get(1, "A")).toBeDefined();
    clock.advance(20 * MIN);
    await store.save(1, "C", { conversation: "c" });
    expect(await store.get(1, "A")).toBeDefined();
    clock.advance(41 * MIN);
    await store.save(2, "D", { conversation: "d" });
    expect(await store.get(1, "A")).toBeUndefined();
    expect((await store.get(1, "B"))?.conversation).toBe("b");
    clock.advance(31 * DAY);
    expect(await store.prune()).toBe(3);
  });
});
