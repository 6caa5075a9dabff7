// @engine each
import { describe, expect, test } from "bun:test";
import { desc, inArray } from "drizzle-orm";
import { contacts, messages, tickets } from "../src/db/tables";
import { indexNewContacts, indexNewMessages } from "../src/db/search-index";
import { broadSearch } from "../src/modules/tickets/search";
import { TICKET_PAGE_SIZE } from "../src/modules/tickets/list";
import { call, loginAs, makeTestApp, type TestContext } from "./helpers";

/**
 * Tickets with activity a minute apart (the newest last), each with `perTicket` messages: every third ticket's
 * say "obrigado", every fifth's "raro" as well, the rest neither. Returns the ids of each word's tickets.
 */
async function inbox(ctx: TestContext, count: number, perTicket: number) {
  const start = Date.parse("2026-05-04T12:00:00Z");
  const people = await ctx.db
    .insert(contacts)
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: `Cliente ${i}`,
        number: `55119660${String(i).padStart(5, "0")}`,
      })),
    )
    .returning({ id: contacts.id });
  const ids = (
    await ctx.db
      .insert(tickets)
      .values(
        people.map((c, i) => ({ status: "closed" as const, contactId: c.id, updatedAt: new Date(start + i * 60_000) })),
      )
      .returning({ id: tickets.id, updatedAt: tickets.updatedAt })
  )
    .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
    .map((t) => t.id);
  const common = ids.filter((_, i) => i % 3 === 0);
  const rare = ids.filter((_, i) => i % 5 === 0);
  const rows = ids.flatMap((ticketId, i) =>
    Array.from({ length: perTicket }, (_, m) => ({
      wid: `p${i}-${m}`,
      ticketId,
      body: `${i % 3 === 0 ? "obrigado" : "bom dia"} ${m}${i % 5 === 0 && m === 0 ? " raro" : ""}`,
    })),
  );
  for (let i = 0; i < rows.length; i += 2000) await ctx.db.insert(messages).values(rows.slice(i, i + 2000));
  // Rows written this way wait for the SQLite full-text index until the next search (which the API runs first).
  await indexNewMessages(ctx.db);
  return { common, rare };
}

type Page = {
  tickets: { id: number; updatedAt: string }[];
  hasMore: boolean;
  count: number;
  next?: { beforeUpdatedAt: number; beforeId: number };
};

/** The search tab paged as its "load more" does (where the page says the next one starts) until no more follow. */
async function pagedToTheEnd(ctx: TestContext, token: string, term: string) {
  const seen: number[] = [];
  let after = "";
  for (let pages = 0; pages < 100; pages++) {
    const res = await call(
      ctx.app,
      "GET",
      `/api/tickets?showAll=true&searchParam=${encodeURIComponent(term)}${after}`,
      { token },
    );
    expect(res.status).toBe(200);
    const page = res.json as Page;
    expect(page.tickets.length).toBeLessThanOrEqual(TICKET_PAGE_SIZE);
    seen.push(...page.tickets.map((t) => t.id));
    if (!page.hasMore) return seen;
    // Here every page is full, and continues after its last ticket.
    expect(page.tickets.length).toBe(TICKET_PAGE_SIZE);
    const last = page.tickets.at(-1)!;
    expect(page.next).toEqual({ beforeUpdatedAt: Date.parse(last.updatedAt), beforeId: last.id });
    after = `&beforeUpdatedAt=${page.next!.beforeUpdatedAt}&beforeId=${page.next!.beforeId}`;
  }
  throw new Error("the search never ended");
}

describe("search paged to the end", () => {
  test("a common word and a rare one each page through every matching ticket exactly once, newest activity first", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    // 300 tickets of 52 messages: "obrigado" in 5,200 messages, more than a search reads as one set.
    const { common, rare } = await inbox(ctx, 300, 52);
    expect(await broadSearch(ctx.db, "obrigado")).toBe(true);
    expect(await broadSearch(ctx.db, "raro")).toBe(false);
    const newestFirst = (ids: number[]) => [...ids].reverse();
    expect(await pagedToTheEnd(ctx, token, "obrigado")).toEqual(newestFirst(common));
    expect(await pagedToTheEnd(ctx, token, "raro")).toEqual(newestFirst(rare));
    expect(await pagedToTheEnd(ctx, token, "obrigado raro")).toEqual(
      newestFirst(common.filter((id) => rare.includes(id))),
    );
  });

  test("an agent's broad search pages through their own tickets and the pending ones of every status, once each", async () => {
    const ctx = await makeTestApp();
    const { token, user } = await loginAs(ctx, { profile: "user" });
    const { common } = await inbox(ctx, 300, 52);
    const all = (await ctx.db.select({ id: tickets.id }).from(tickets)).map((t) => t.id).sort((a, b) => a - b);
    // Of every four tickets: one pending, one open and one closed of the agent's, one closed of nobody's.
    const pending = all.filter((_, i) => i % 4 === 0);
    const mineOpen = all.filter((_, i) => i % 4 === 1);
    const mineClosed = all.filter((_, i) => i % 4 === 2);
    await ctx.db.update(tickets).set({ status: "pending" }).where(inArray(tickets.id, pending));
    await ctx.db.update(tickets).set({ status: "open", userId: user.id }).where(inArray(tickets.id, mineOpen));
    await ctx.db.update(tickets).set({ userId: user.id }).where(inArray(tickets.id, mineClosed));
    expect(await broadSearch(ctx.db, "obrigado")).toBe(true);
    const visible = new Set([...pending, ...mineOpen, ...mineClosed].filter((id) => common.includes(id)));
    // The updates above moved those tickets' activity: the order is read back.
    const newestFirst = (
      await ctx.db.select({ id: tickets.id }).from(tickets).orderBy(desc(tickets.updatedAt), desc(tickets.id))
    )
      .map((t) => t.id)
      .filter((id) => visible.has(id));
    // The agent's show-all is not honoured: the tab is theirs and the pending tickets.
    expect(await pagedToTheEnd(ctx, token, "obrigado")).toEqual(newestFirst);
  });

  test("a broad search whose first page reaches the end of the list counts exactly what it found", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { common } = await inbox(ctx, 60, 260);
    expect(await broadSearch(ctx.db, "obrigado")).toBe(true);
    const res = await call(ctx.app, "GET", "/api/tickets?showAll=true&searchParam=obrigado", { token });
    expect(res.json.count).toBe(common.length);
    expect(res.json.hasMore).toBe(false);
  });

  test("where a broad search's matches are far back, pages may end empty and say where the next one starts", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    // 5,100 old tickets whose contacts are called "Antiga" (more than a search reads as one set), then 4,100
    // newer ones: more than a page walks.
    const start = Date.parse("2026-01-01T00:00:00Z");
    const names = Array.from({ length: 9_200 }, (_, i) => (i < 5_100 ? `Antiga ${i}` : `Nova ${i}`));
    const people = await ctx.db
      .insert(contacts)
      .values(names.map((name, i) => ({ name, number: `55118${String(i).padStart(7, "0")}` })))
      .returning({ id: contacts.id, name: contacts.name });
    await ctx.db.insert(tickets).values(
      people.map((c) => ({
        status: "closed" as const,
        contactId: c.id,
        updatedAt: new Date(start + Number(c.name.split(" ")[1]) * 60_000),
      })),
    );
    await indexNewContacts(ctx.db);
    expect(await broadSearch(ctx.db, "antiga")).toBe(true);
    const get = async (after = "") =>
      (await call(ctx.app, "GET", `/api/tickets?showAll=true&searchParam=antiga${after}`, { token })).json as Page;
    let page = await get();
    let emptyPages = 0;
    while (!page.tickets.length) {
      expect(page.hasMore).toBe(true);
      emptyPages++;
      page = await get(`&beforeUpdatedAt=${page.next!.beforeUpdatedAt}&beforeId=${page.next!.beforeId}`);
    }
    expect(emptyPages).toBeGreaterThan(0);
    expect(emptyPages).toBeLessThan(5);
    expect(page.tickets.map((t) => Date.parse(t.updatedAt))).toEqual(
      Array.from({ length: TICKET_PAGE_SIZE }, (_, i) => start + (5_099 - i) * 60_000),
    );
    expect(page.hasMore).toBe(true);
  });
});
