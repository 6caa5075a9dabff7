// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { atomically } from "../src/db/client";
import { prepared } from "../src/db/prepared";
import { contacts, tickets } from "../src/db/tables";
import { createSandboxConnection, makeTestApp } from "./helpers";

const everyTicket = prepared((db) => db.select().from(tickets).orderBy(asc(tickets.id)).prepare());
const ticketById = prepared((db) =>
  db
    .select({ id: tickets.id, at: tickets.updatedAt, contact: contacts.name, n: sql<number>`1 + 1`.mapWith(Number) })
    .from(tickets)
    .leftJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(eq(tickets.id, sql.placeholder("id")))
    .prepare(),
);
const ticketWithContact = prepared((db) =>
  db
    .select({ ticket: { id: tickets.id }, contact: { id: contacts.id, name: contacts.name } })
    .from(tickets)
    .leftJoin(contacts, eq(contacts.id, sql`-1`))
    .orderBy(asc(tickets.id))
    .prepare(),
);

describe("prepared queries' rows", () => {
  test("are the rows drizzle maps for the same query: decoded columns, nulls, a missing row, nested and left-joined selections", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    await ctx.sandbox.inbound(conn.id, { from: "5511900000001", id: "A1", body: "hi" });
    await ctx.sandbox.inbound(conn.id, { from: "5511900000002", id: "A2", body: "hello" });
    const built = await ctx.db.select().from(tickets).orderBy(asc(tickets.id));
    expect(built.length).toBe(2);
    expect(await everyTicket(ctx.db).all()).toEqual(built);
    expect((built[0]!.updatedAt as Date) instanceof Date).toBe(true);
    const one = await ticketById(ctx.db).get({ id: built[1]!.id });
    expect(one).toEqual({ id: built[1]!.id, at: built[1]!.updatedAt, contact: "5511900000002", n: 2 });
    expect(await ticketById(ctx.db).get({ id: -1 })).toBeUndefined();
    expect(await atomically(ctx.db, async (tx) => await ticketById(tx).get({ id: built[0]!.id }))).toMatchObject({
      id: built[0]!.id,
    });
    expect(await ticketWithContact(ctx.db).all()).toEqual(built.map((t) => ({ ticket: { id: t.id }, contact: null })));
  });
});
