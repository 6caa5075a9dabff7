import { describe, expect, test } from "bun:test";
import { proto } from "baileys";
import { SentMessageStore } from "../../src/channels/baileys/sent-store";
import { openDatabase } from "../../src/db/client";
import { runMigrations } from "../../src/db/migrate";
import { TestClock } from "../helpers";

const DAY = 24 * 3600_000;

function setup() {
  const db = openDatabase(":memory:");
  runMigrations(db);
  db.$client
    .query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys'), (2, 'Other', 'baileys')")
    .run();
  const clock = new TestClock(Date.parse("2026-03-01T09:00:00Z"));
  return { db, clock, store: new SentMessageStore(db, () => clock.now()) };
}

describe("sent-message content for retry receipts", () => {
  test("content comes back byte for byte, per connection", () => {
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
    store.save(1, "3EB0A", image);
    const back = store.get(1, "3EB0A")!;
    expect(Buffer.from(back.imageMessage!.mediaKey!)).toEqual(Buffer.from([1, 2, 3]));
    expect(Number(back.imageMessage!.fileLength)).toBe(123_456);
    expect(proto.Message.encode(back).finish()).toEqual(proto.Message.encode(image).finish());
    expect(store.get(2, "3EB0A")).toBeUndefined();
    expect(store.get(1, "unknown")).toBeUndefined();
  });

  test("sending again under the same id keeps the latest content", () => {
    const { store } = setup();
    store.save(1, "3EB0A", { conversation: "first" });
    store.save(1, "3EB0A", { conversation: "second" });
    expect(store.get(1, "3EB0A")?.conversation).toBe("second");
  });

  test("content older than 30 days is pruned, at most once an hour while sending", () => {
    const { store, clock } = setup();
    const MIN = 60_000;
    store.save(1, "A", { conversation: "a" });
    clock.advance(30 * DAY - 10 * MIN);
    store.save(1, "B", { conversation: "b" });
    expect(store.get(1, "A")).toBeDefined();
    clock.advance(20 * MIN);
    store.save(1, "C", { conversation: "c" });
    expect(store.get(1, "A")).toBeDefined();
    clock.advance(41 * MIN);
    store.save(2, "D", { conversation: "d" });
    expect(store.get(1, "A")).toBeUndefined();
    expect(store.get(1, "B")?.conversation).toBe("b");
    clock.advance(31 * DAY);
    expect(store.prune()).toBe(3);
  });
});
