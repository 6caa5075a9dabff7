// @engine each
import { sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { contacts, tickets } from "../src/db/tables";
import { testsOnPostgres } from "./test-engine";
import { findOrCreateContact, knownContact } from "../src/modules/contacts/find-or-create";
import { arrivalOf } from "../src/modules/messages/arrival";
import { createSandboxConnection, makeTestApp } from "./helpers";

describe("a message's contact", () => {
  test("a known number reported without a LID, or with the LID it holds, is read without writing; a new one, a new LID or a changed group subject is not", async () => {
    const ctx = await makeTestApp();
    const person = await findOrCreateContact(ctx.deps, { address: "5511911110001", name: "Ana", isGroup: false });
    const group = await findOrCreateContact(ctx.deps, { address: "120363000000001", name: "Equipe", isGroup: true });
    expect((await knownContact(ctx.db, { address: "5511911110001", name: "Ana B", isGroup: false }))?.id).toBe(
      person.id,
    );
    expect((await knownContact(ctx.db, { address: "120363000000001", name: "Equipe", isGroup: true }))?.id).toBe(
      group.id,
    );
    expect((await knownContact(ctx.db, { address: "120363000000001", isGroup: true }))?.id).toBe(group.id);
    expect(
      await knownContact(ctx.db, { address: "120363000000001", name: "Novo nome", isGroup: true }),
    ).toBeUndefined();
    expect(
      await knownContact(ctx.db, { address: "5511911110001", lid: "123456789012345", isGroup: false }),
    ).toBeUndefined();
    await findOrCreateContact(ctx.deps, { address: "5511911110001", lid: "123456789012345", isGroup: false });
    expect(
      (await knownContact(ctx.db, { address: "5511911110001", lid: "123456789012345", isGroup: false }))?.lid,
    ).toBe("123456789012345");
    expect(
      await knownContact(ctx.db, { address: "5511911110001", lid: "999999999999999", isGroup: false }),
    ).toBeUndefined();
    expect(await knownContact(ctx.db, { address: "lid:123456789012345", isGroup: false })).toBeUndefined();
    expect(await knownContact(ctx.db, { address: "5511911110002", isGroup: false })).toBeUndefined();
  });

  test("an arriving message is known as stored for good (not as a waiting placeholder) with the contact holding its chat's number", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const base = { chatId: "5511911110003", isGroup: false, fromMe: false, at: Date.now(), pushName: "Bia" };
    await ctx.channels.driverSink.onMessage(conn.id, { ...base, id: "A1", kind: "chat", body: "oi" });
    await ctx.channels.driverSink.onMessage(conn.id, { ...base, id: "A2", kind: "waiting", body: "" });
    const [contact] = await ctx.db.select().from(contacts);
    expect(await arrivalOf(ctx.db, conn.id, "A1", "5511911110003")).toEqual({ storedForGood: true, contact: contact! });
    expect(await arrivalOf(ctx.db, conn.id, "A2", "5511911110003")).toEqual({
      storedForGood: false,
      contact: contact!,
    });
    expect(await arrivalOf(ctx.db, conn.id + 1, "A1", "5511911110004")).toEqual({
      storedForGood: false,
      contact: undefined,
    });
    expect(await arrivalOf(ctx.db, conn.id, "A1", null)).toEqual({ storedForGood: true, contact: undefined });
  });

  test("new numbers writing at once, each twice, get one contact and one ticket each, announced once they are stored", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const stored: boolean[] = [];
    const announced: number[] = [];
    ctx.deps.events.subscribe((event) => {
      if (event.name !== "contact.created") return;
      announced.push(event.payload.contact.id);
      // On SQLite, checked synchronously as the event is heard: committed already, outside any transaction.
      if (testsOnPostgres) return;
      const row = sqliteClient(ctx.db).query("SELECT id FROM contacts WHERE id = ?").get(event.payload.contact.id);
      stored.push(Boolean(row) && !sqliteClient(ctx.db).inTransaction);
    });
    const numbers = Array.from({ length: 10 }, (_, i) => `55119222200${String(i).padStart(2, "0")}`);
    await Promise.all(
      numbers.flatMap((number) =>
        [1, 2].map((n) =>
          ctx.channels.driverSink.onMessage(conn.id, {
            id: `${number}-${n}`,
            chatId: number,
            isGroup: false,
            fromMe: false,
            at: Date.now(),
            kind: "chat",
            body: `oi ${n}`,
            pushName: `Pessoa ${number}`,
          }),
        ),
      ),
    );
    const rows = await ctx.db.select().from(contacts);
    expect(rows.map((c) => c.number).sort()).toEqual(numbers);
    expect(rows.every((c) => c.name === `Pessoa ${c.number}`)).toBe(true);
    expect(await ctx.db.select().from(tickets)).toHaveLength(numbers.length);
    expect(announced.sort()).toEqual(rows.map((c) => c.id).sort());
    if (!testsOnPostgres) expect(stored).toEqual(numbers.map(() => true));
  });
});
