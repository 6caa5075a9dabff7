// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { pipelinesStatements } from "../src/db/client";
import { gathered, readTogether } from "../src/db/gathered";
import { contacts, messages, tags, tickets } from "../src/db/tables";
import { findContact } from "../src/modules/contacts/lookup";
import { GroupCommit } from "../src/modules/inbound/group-commit";
import { arrivalOf } from "../src/modules/messages/arrival";
import { gatheredDialog, saveDialog } from "../src/modules/tickets/dialogs";
import { findTicket, gatheredTicket } from "../src/modules/tickets/records";
import { createSandboxConnection, makeTestApp } from "./helpers";

const phone = (n: number) => `55119${String(n).padStart(8, "0")}`;

type Inbound = { from: string; id: string; body: string };

/** A new app that received `messages` at once with one message from each of six other chats (shared group commits). */
async function burstWithOtherChats(messages: Inbound[]) {
  const ctx = await makeTestApp();
  const conn = await createSandboxConnection(ctx);
  const others = Array.from({ length: 6 }, (_, n) => ({ from: phone(10 + n), id: `OTHER-${n}`, body: `${n}` }));
  await Promise.all([...messages, ...others].map((message) => ctx.sandbox.inbound(conn.id, message)));
  return ctx;
}

/** A gathered read answering key × 10, with the keys of each statement it would send in `asked`. */
function keysTimesTen() {
  const asked: number[][] = [];
  const read = gathered<number, number>({
    idOf: String,
    one: async (_db, key) => {
      asked.push([key]);
      return key * 10;
    },
    many: async (_tx, keys) => {
      asked.push(keys);
      return new Map(keys.map((key) => [String(key), key * 10]));
    },
  });
  return { asked, read };
}

describe("reads gathered in a group commit's batch", () => {
  test("the writes of a batch written side by side read one kind of row in one statement; otherwise one read per key", async () => {
    const ctx = await makeTestApp();
    const { asked, read } = keysTimesTen();
    const commits = new GroupCommit(ctx.db, ctx.deps.events);
    const answers = await Promise.all([1, 2, 2, 3].map((key) => commits.run(async () => await read(ctx.db, key))));
    expect(answers).toEqual([10, 20, 20, 30]);
    // Equal keys share one answer.
    expect(asked).toEqual(pipelinesStatements(ctx.db) ? [[1, 2, 3]] : [[1], [2], [2], [3]]);
  });

  test("reads asked together outside a transaction go out as one statement on PostgreSQL; otherwise one read per key", async () => {
    const ctx = await makeTestApp();
    const { asked, read } = keysTimesTen();
    const answers = await Promise.all([1, 2, 3].map((key) => readTogether(ctx.db, () => read(ctx.db, key))));
    expect(answers).toEqual([10, 20, 30]);
    expect(asked).toEqual(pipelinesStatements(ctx.db) ? [[1, 2, 3]] : [[1], [2], [3]]);
  });

  test("arrivals read together answer each message as it is answered alone: stored or not, its number's contact or none", async () => {
    const ctx = await burstWithOtherChats([{ from: phone(1), id: "KNOWN-1", body: "hi" }]);
    const conn = (await ctx.db.select({ id: messages.whatsappId }).from(messages).limit(1))[0]!.id!;
    const asks: [number, string, string | null][] = [
      [conn, "KNOWN-1", phone(1)],
      [conn, "NEW-1", phone(1)],
      [conn, "KNOWN-1", null],
      [conn, 'NEW-"quoted\\', phone(99)],
      [conn, "NEW-1", phone(1)],
      [conn + 1, "KNOWN-1", phone(10)],
    ];
    const together = await Promise.all(asks.map((ask) => readTogether(ctx.db, () => arrivalOf(ctx.db, ...ask))));
    const alone: Awaited<ReturnType<typeof arrivalOf>>[] = [];
    for (const ask of asks) alone.push(await arrivalOf(ctx.db, ...ask));
    expect(together).toEqual(alone);
    expect(alone.map((arrival) => [arrival.storedForGood, arrival.contact?.number ?? null])).toEqual([
      [true, phone(1)],
      [false, phone(1)],
      [true, null],
      [false, null],
      [false, phone(1)],
      [false, phone(10)],
    ]);
  });

  test("tickets and bot dialogues read together are each their own row; a ticket without a dialogue has none", async () => {
    const ctx = await burstWithOtherChats([]);
    const ids = (await ctx.db.select({ id: tickets.id }).from(tickets).orderBy(asc(tickets.id))).map((t) => t.id);
    await saveDialog(ctx.db, ids[0]!, { invalidCount: 1 });
    await saveDialog(ctx.db, ids[2]!, { invalidCount: 2 });
    const [rows, dialogs] = await Promise.all([
      Promise.all(ids.map((id) => readTogether(ctx.db, () => gatheredTicket(ctx.db, id)))),
      Promise.all(ids.map((id) => readTogether(ctx.db, () => gatheredDialog(ctx.db, id)))),
    ]);
    expect(rows).toEqual(await Promise.all(ids.map((id) => findTicket(ctx.db, id))));
    expect(dialogs.map((dialog) => dialog?.invalidCount ?? null)).toEqual([1, null, 2, null, null, null]);
    expect(dialogs[2]!.ticketId).toBe(ids[2]!);
  });

  test("a write that fails after its gathered read is refused alone: the others are stored once, in order", async () => {
    const ctx = await makeTestApp();
    const commits = new GroupCommit(ctx.db, ctx.deps.events);
    const [first] = await ctx.db
      .insert(contacts)
      .values({ name: "Ana", number: phone(1) })
      .returning();
    await ctx.db.insert(tags).values({ name: "taken", color: "#000000" });
    const write = (name: string) =>
      commits.run(async () => {
        const contact = (await findContact(ctx.db, first!.id))!;
        await ctx.db.insert(tags).values({ name, color: "#000000" });
        return `${contact.name}:${name}`;
      });
    const answers = await Promise.allSettled([write("one"), write("taken"), write("three"), write("four")]);
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : "refused"))).toEqual([
      "Ana:one",
      "refused",
      "Ana:three",
      "Ana:four",
    ]);
    const names = (await ctx.db.select().from(tags).orderBy(asc(tags.id))).map((t) => t.name);
    expect(names).toEqual(["taken", "one", "three", "four"]);
  });

  test("one message id delivered in two chats in the same burst is stored once", async () => {
    const ctx = await burstWithOtherChats([
      { from: phone(1), id: "SAME", body: "first" },
      { from: phone(2), id: "SAME", body: "second" },
    ]);
    const stored = await ctx.db.select().from(messages).where(eq(messages.wid, "SAME"));
    expect(stored).toHaveLength(1);
    expect(await ctx.db.select().from(messages)).toHaveLength(7);
  });

  test("two messages of a new contact in one burst with other chats make one contact and one ticket, in order", async () => {
    const ctx = await burstWithOtherChats([
      { from: phone(1), id: "NEW-1", body: "hello" },
      { from: phone(1), id: "NEW-2", body: "anyone?" },
    ]);
    const contact = await ctx.db
      .select()
      .from(contacts)
      .where(eq(contacts.number, phone(1)));
    expect(contact).toHaveLength(1);
    const ofContact = await ctx.db.select().from(tickets).where(eq(tickets.contactId, contact[0]!.id));
    expect(ofContact).toHaveLength(1);
    expect(ofContact[0]!.unreadMessages).toBe(2);
    const stored = await ctx.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ofContact[0]!.id))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => m.body)).toEqual(["hello", "anyone?"]);
    expect(await ctx.db.select().from(tickets)).toHaveLength(7);
  });
});
