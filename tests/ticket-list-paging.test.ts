// @engine each
import { atomically, one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { contacts, tickets } from "../src/db/tables";
import { TICKET_COUNT_CAP } from "../src/shared/contracts/tickets";
import { call, loginAs, makeTestApp, type TestContext } from "./helpers";

/** `n` closed tickets, three at each updatedAt (ties are ordered by id). */
async function closedTickets(ctx: TestContext, n: number) {
  const at = 1_700_000_000_000;
  await atomically(ctx.db, async (tx) => {
    for (let i = 0; i < n; i++) {
      const contact = await one(
        tx
          .insert(contacts)
          .values({ name: `C${i}`, number: `55119${String(i).padStart(8, "0")}` })
          .returning(),
      );
      await tx
        .insert(tickets)
        .values({ status: "closed", contactId: contact.id, updatedAt: new Date(at + Math.floor(i / 3) * 1000) });
    }
  });
}

type Page = { tickets: { id: number; updatedAt: string }[]; count: number; hasMore: boolean };

describe("paging the ticket list", () => {
  test("continuing after the last ticket shown gives the same pages as page numbers, ties included", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await closedTickets(ctx, 100);
    const get = async (query: string) =>
      (await call(ctx.app, "GET", `/api/tickets?showAll=true&status=closed${query}`, { token })).json as Page;
    const byNumber: number[] = [];
    const byCursor: number[] = [];
    let cursor = "";
    for (let page = 1; page <= 3; page++) {
      const numbered = await get(`&pageNumber=${page}`);
      const continued = await get(`&pageNumber=${page}${cursor}`);
      byNumber.push(...numbered.tickets.map((t) => t.id));
      byCursor.push(...continued.tickets.map((t) => t.id));
      expect(continued.hasMore).toBe(numbered.hasMore);
      const last = continued.tickets.at(-1)!;
      cursor = `&beforeUpdatedAt=${Date.parse(last.updatedAt)}&beforeId=${last.id}`;
    }
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(100);
    expect((await get(cursor)).tickets).toEqual([]);
  });

  test("an agent's own and pending tickets across statuses page in one order, by number and after a ticket", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const at = 1_700_000_000_000;
    const expected: number[] = [];
    for (let i = 0; i < 90; i++) {
      const status = (["open", "pending", "closed"] as const)[i % 3]!;
      const mine = status !== "pending" || i % 2 === 0;
      const contact = await one(
        ctx.db
          .insert(contacts)
          .values({ name: `P${i}`, number: `55118${String(i).padStart(8, "0")}` })
          .returning(),
      );
      const ticket = await one(
        ctx.db
          .insert(tickets)
          .values({
            status,
            contactId: contact.id,
            userId: mine ? agent.user.id : null,
            updatedAt: new Date(at - i * 1000),
          })
          .returning(),
      );
      expected.push(ticket.id);
    }
    const get = async (query: string) =>
      (await call(ctx.app, "GET", `/api/tickets?showAll=false${query}`, { token: agent.token })).json as Page;
    const byNumber: number[] = [];
    const byCursor: number[] = [];
    let cursor = "";
    for (let page = 1; page <= 3; page++) {
      const numbered = await get(`&pageNumber=${page}`);
      const continued = await get(cursor);
      expect(numbered.count).toBe(90);
      expect(continued.hasMore).toBe(page < 3);
      byNumber.push(...numbered.tickets.map((t) => t.id));
      byCursor.push(...continued.tickets.map((t) => t.id));
      const last = continued.tickets.at(-1)!;
      cursor = `&beforeUpdatedAt=${Date.parse(last.updatedAt)}&beforeId=${last.id}`;
    }
    expect(byNumber).toEqual(expected);
    expect(byCursor).toEqual(expected);
  });

  test("the count is exact up to the cap and stops there; hasMore still says whether rows follow", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await closedTickets(ctx, TICKET_COUNT_CAP + 5);
    const first = (await call(ctx.app, "GET", "/api/tickets?showAll=true&status=closed", { token })).json as Page;
    expect(first).toMatchObject({ count: TICKET_COUNT_CAP, hasMore: true });
    const pending = (await call(ctx.app, "GET", "/api/tickets?showAll=true&status=pending", { token })).json as Page;
    expect(pending).toMatchObject({ count: 0, hasMore: false });
  });

  test("a cursor needs both its parts, as numbers", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const bad = await call(ctx.app, "GET", "/api/tickets?beforeUpdatedAt=soon&beforeId=1", { token });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: "VALIDATION", field: "beforeUpdatedAt" });
    const half = await call(ctx.app, "GET", "/api/tickets?showAll=true&beforeId=1", { token });
    expect(half.status).toBe(200);
  });
});
