import { describe, expect, test } from "bun:test";
import type { GroupMetadata } from "baileys";
import { TtlCache } from "../../src/channels/baileys/cache";
import { GroupMetadataCache } from "../../src/channels/baileys/group-cache";
import { TestClock } from "../helpers";

describe("TtlCache", () => {
  test("entries expire after the TTL counted from their last set", () => {
    const clock = new TestClock(0);
    const cache = new TtlCache(1000, 10, () => clock.now());
    cache.set("a", 1);
    clock.advance(600);
    cache.set("a", 2);
    clock.advance(600);
    expect(cache.get<number>("a")).toBe(2);
    clock.advance(400);
    expect(cache.get("a")).toBeUndefined();
  });

  test("beyond its bound the oldest entries go first, and expired ones are dropped as new ones come", () => {
    const clock = new TestClock(0);
    const cache = new TtlCache(1000, 3, () => clock.now());
    for (const k of ["a", "b", "c", "d"]) cache.set(k, k);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("d")).toBe("d");
    clock.advance(1000);
    cache.set("e", "e");
    expect(cache.size).toBe(1);
    cache.del("e");
    cache.set("f", 0);
    cache.flushAll();
    expect(cache.size).toBe(0);
  });
});

const group = (id: string, participants: string[], extra: Partial<GroupMetadata> = {}): GroupMetadata => ({
  id,
  subject: "Suporte",
  owner: undefined,
  participants: participants.map((p) => ({ id: p, admin: null })),
  ...extra,
});

const ids = (meta: GroupMetadata | undefined) => meta?.participants.map((p) => p.id);

describe("group metadata for sends to groups", () => {
  test("a group is fetched once, even by concurrent sends, then served from memory", async () => {
    let fetches = 0;
    const cache = new GroupMetadataCache(async (jid) => {
      fetches++;
      return group(jid, ["1@lid", "2@lid"]);
    });
    const [a, b] = await Promise.all([cache.get("g@g.us"), cache.get("g@g.us")]);
    expect(a).toBe(b!);
    expect(ids(await cache.get("g@g.us"))).toEqual(["1@lid", "2@lid"]);
    expect(fetches).toBe(1);
  });

  test("a failed fetch returns nothing (Baileys then asks itself) and is tried again next time", async () => {
    let fail = true;
    const cache = new GroupMetadataCache(async (jid) => {
      if (fail) throw new Error("timed out");
      return group(jid, ["1@lid"]);
    });
    expect(await cache.get("g@g.us")).toBeUndefined();
    fail = false;
    expect(ids(await cache.get("g@g.us"))).toEqual(["1@lid"]);
  });

  test("groups.upsert and groups.update keep the metadata current without a query", async () => {
    const cache = new GroupMetadataCache(async () => {
      throw new Error("no query expected");
    });
    cache.upsert([group("g@g.us", ["1@lid"])]);
    cache.update([
      { id: "g@g.us", subject: "Vendas", announce: true },
      { id: "unknown@g.us", subject: "x" },
    ]);
    expect(await cache.get("g@g.us")).toMatchObject({
      subject: "Vendas",
      announce: true,
      participants: [{ id: "1@lid" }],
    });
    expect(cache.has("unknown@g.us")).toBe(false);
    cache.update([group("h@g.us", ["7@lid"])]);
    expect(ids(await cache.get("h@g.us"))).toEqual(["7@lid"]);
  });

  test("participant changes are applied, matching either the LID or the phone number", async () => {
    const cache = new GroupMetadataCache(async () => {
      throw new Error("no query expected");
    });
    cache.upsert([
      {
        ...group("g@g.us", []),
        participants: [
          { id: "1@lid", phoneNumber: "5511911111111@s.whatsapp.net", admin: null },
          { id: "2@lid", admin: null },
        ],
      },
    ]);
    const update = (
      action: "add" | "remove" | "promote" | "demote" | "modify",
      participants: { id: string; lid?: string }[],
    ) => cache.participants({ id: "g@g.us", author: "2@lid", action, participants });

    update("add", [{ id: "3@lid" }]);
    expect(ids(await cache.get("g@g.us"))).toEqual(["1@lid", "2@lid", "3@lid"]);
    update("promote", [{ id: "3@lid" }]);
    expect((await cache.get("g@g.us"))!.participants.find((p) => p.id === "3@lid")?.admin).toBe("admin");
    update("demote", [{ id: "3@lid" }]);
    expect((await cache.get("g@g.us"))!.participants.find((p) => p.id === "3@lid")?.admin).toBeNull();
    update("remove", [{ id: "5511911111111@s.whatsapp.net", lid: "1@lid" }]);
    expect(await cache.get("g@g.us")).toMatchObject({ size: 2 });
    expect(ids(await cache.get("g@g.us"))).toEqual(["2@lid", "3@lid"]);
    update("modify", [{ id: "2@lid" }]);
    expect(cache.has("g@g.us")).toBe(false);
  });

  test("a change that arrives while the group is being fetched wins over the older answer", async () => {
    let answer: (meta: GroupMetadata) => void = () => {};
    const cache = new GroupMetadataCache(() => new Promise((resolve) => (answer = resolve)));
    const pending = cache.get("g@g.us");
    cache.upsert([group("g@g.us", ["1@lid", "2@lid"])]);
    answer(group("g@g.us", ["1@lid"]));
    await pending;
    expect(ids(await cache.get("g@g.us"))).toEqual(["1@lid", "2@lid"]);
  });
});
