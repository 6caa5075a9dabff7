// @engine once
import { one, sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { Placeholder } from "drizzle-orm";
import { boundValues } from "../src/modules/tickets/list-values";
import { queues, tags } from "../src/db/tables";
import { historySearchQuery, matchesAmongQuery } from "../src/modules/messages/search";
import {
  afterTicket,
  listTickets,
  statusesCountQuery,
  statusesPageQuery,
  statusesRowsQuery,
  TICKET_PAGE_SIZE,
  type TicketListParams,
  ticketCountQuery,
  ticketCountedPageQuery,
  ticketFilter,
  ticketOrderQuery,
  ticketPageQuery,
  ticketPickedPageQuery,
} from "../src/modules/tickets/list";
import { ticketSearch } from "../src/modules/tickets/search";
import type { AuthUser } from "../src/shared/auth-user";
import type { TicketStatus } from "../src/shared/contracts";
import { TICKET_COUNT_CAP } from "../src/shared/contracts/tickets";
import { loginAs, makeTestApp, type TestContext } from "./helpers";

/** The steps of SQLite's plan for a query built by drizzle (its placeholders given `values`). */
function plan(
  ctx: TestContext,
  query: { toSQL(): { sql: string; params: unknown[] } },
  values: Record<string, unknown> = {},
) {
  const { sql, params } = query.toSQL();
  const bound = params.map((p) => (p instanceof Placeholder ? values[p.name] : p));
  return sqliteClient(ctx.db)
    .query(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...(bound as never[]))
    .map((row) => (row as { detail: string }).detail);
}

/**
 * Steps that read a whole table row by row (`SCAN tickets`), or test each ticket with a subquery of its own
 * (`CORRELATED`, `EXISTS`). Walking an index in page order (`SCAN tickets USING INDEX …`) stops at the page size.
 */
const fullScans = (steps: string[]) =>
  steps.filter((d) => /^SCAN (tickets|messages|contacts|ticket_tags)$|CORRELATED|\bEXISTS\b/.test(d));

/** Every list the service can build for one user: each status, show-all, and each filter alone and all together. */
function shapes(queueId: number, tagIds: number[]): TicketListParams[] {
  const filters: TicketListParams[] = [
    {},
    { queueIds: [queueId] },
    { queueIds: [] },
    { tags: tagIds.slice(0, 1) },
    { tags: tagIds },
    { withUnreadMessages: true },
    { date: "2026-05-04" },
    { updatedAt: "2026-05-04" },
    { searchParam: "joão pedido" },
    { searchParam: "pe" },
    { pageNumber: 30 },
    { before: { updatedAt: 1_770_000_000_000, id: 500 } },
    {
      queueIds: [queueId],
      tags: tagIds,
      withUnreadMessages: true,
      date: "2026-05-04",
      updatedAt: "2026-05-04",
      searchParam: "joão",
      before: { updatedAt: 1_770_000_000_000, id: 500 },
    },
  ];
  const statuses: (TicketStatus | undefined)[] = [undefined, "open", "pending", "closed"];
  return statuses.flatMap((status) =>
    [true, false].flatMap((showAll) => filters.map((f) => ({ ...f, status, showAll }))),
  );
}

describe("query plans of the ticket list and the search", () => {
  test("no list query shape, page or count, inline or prepared with its values bound, reads the tickets, messages or contacts table in full", async () => {
    const ctx = await makeTestApp();
    const { user } = await loginAs(ctx, { profile: "admin" });
    const queue = await one(ctx.db.insert(queues).values({ name: "A", color: "#a" }).returning());
    const agent = await loginAs(ctx, { queueIds: [queue.id] });
    const tagIds: number[] = [];
    for (const name of ["x", "y"]) tagIds.push((await one(ctx.db.insert(tags).values({ name }).returning())).id);
    const users: AuthUser[] = [
      { ...user, queueIds: [], tokenVersion: 0 },
      { ...agent.user, queueIds: [queue.id], tokenVersion: 0 },
    ];
    const found: Record<string, string[]> = {};
    let checked = 0;
    for (const who of users)
      for (const params of shapes(queue.id, tagIds))
        for (const bound of [undefined, boundValues()]) {
          const where = await ticketFilter(ctx.db, who, params, "UTC", undefined, bound);
          const after = afterTicket(where, params.before, bound);
          const page = ticketPageQuery(ctx.db, after).limit(TICKET_PAGE_SIZE + 1);
          const queries: [string, { toSQL(): { sql: string; params: unknown[] } }][] = [
            ["page", page],
            ["page order", ticketOrderQuery(ctx.db, after).limit(TICKET_PAGE_SIZE + 1)],
            ["picked page", ticketPickedPageQuery(ctx.db, after, TICKET_PAGE_SIZE + 1)],
            ["count", ticketCountQuery(ctx.db, where)],
          ];
          // A first page carries its count.
          if (!params.before)
            queries.push(["counted page", ticketCountedPageQuery(ctx.db, where, TICKET_PAGE_SIZE + 1)]);
          if (!params.status) {
            // "Mine or pending" reads each status's list, all three in one statement.
            const parts = await Promise.all(
              (["open", "pending", "closed"] as const).map((status) =>
                ticketFilter(ctx.db, who, { ...params, status }, "UTC", undefined, bound),
              ),
            );
            const paged = parts.map((part) => afterTicket(part, params.before, bound));
            queries.push(
              ["statuses page", statusesPageQuery(ctx.db, paged, TICKET_PAGE_SIZE + 1, TICKET_PAGE_SIZE + 1)],
              ["statuses rows", statusesRowsQuery(ctx.db, paged, TICKET_PAGE_SIZE + 1, TICKET_PAGE_SIZE + 1)],
              ["statuses count", statusesCountQuery(ctx.db, parts)],
            );
          }
          for (const [kind, query] of queries) {
            const steps = plan(ctx, query, bound?.values);
            checked++;
            const label = `${who.profile} ${bound ? "prepared " : ""}${kind} ${JSON.stringify(params)}`;
            if (process.env.PRINT_PLANS) console.log(label, steps.join(" | "));
            if (fullScans(steps).length) found[label] = steps;
          }
        }
    expect(found).toEqual({});
    expect(checked).toBeGreaterThan(400);
  });

  test("a tag on many of the tickets is met walking the list in page order; a rare one is read as a set", async () => {
    const ctx = await makeTestApp();
    const { user } = await loginAs(ctx, { profile: "admin" });
    const admin: AuthUser = { ...user, queueIds: [], tokenVersion: 0 };
    const common = (await one(ctx.db.insert(tags).values({ name: "common" }).returning())).id;
    const rare = (await one(ctx.db.insert(tags).values({ name: "rare" }).returning())).id;
    const client = sqliteClient(ctx.db);
    client.transaction(() => {
      const contact = client.prepare("INSERT INTO contacts (name, number) VALUES (?, ?)");
      const ticket = client.prepare("INSERT INTO tickets (contact_id, status, updated_at) VALUES (?, ?, ?)");
      const tag = client.prepare("INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)");
      for (let i = 0; i <= 3000; i++) {
        const contactId = Number(contact.run(`C${i}`, `5511${i}`).lastInsertRowid);
        const id = Number(ticket.run(contactId, i % 2 ? "closed" : "open", 1_700_000_000_000 + i).lastInsertRowid);
        tag.run(id, common);
        if (i % 100 === 0) tag.run(id, rare);
      }
    })();
    for (const status of [undefined, "open", "closed"] as const) {
      const walk = plan(
        ctx,
        ticketPageQuery(ctx.db, await ticketFilter(ctx.db, admin, { status, showAll: true, tags: [common] }, "UTC")),
      );
      expect(walk.some((d) => d.includes("TEMP B-TREE FOR ORDER BY"))).toBe(false);
      expect(fullScans(walk)).toEqual([]);
      const set = plan(
        ctx,
        ticketPageQuery(ctx.db, await ticketFilter(ctx.db, admin, { status, showAll: true, tags: [rare] }, "UTC")),
      );
      expect(set[0]).toContain("INTEGER PRIMARY KEY");
    }
    const page = await listTickets(ctx.db, admin, { status: "open", showAll: true, tags: [common] }, "UTC");
    expect(page.count).toBe(TICKET_COUNT_CAP);
    expect(page.tickets.map((t) => t.updatedAt.getTime())).toEqual(
      Array.from({ length: TICKET_PAGE_SIZE }, (_, i) => 1_700_000_000_000 + 3000 - 2 * i),
    );
  });

  test("a broad search checks a stretch of tickets by their messages and the full-text index between their ids", async () => {
    const ctx = await makeTestApp();
    const steps = plan(ctx, matchesAmongQuery(ctx.db, [1, 2, 3], '"obrigado"*'));
    expect(fullScans(steps)).toEqual([]);
    expect(steps.some((d) => d.includes("messages_fts"))).toBe(true);
  });

  test("the ticket search reads the two full-text indexes and looks tickets up by id", async () => {
    const ctx = await makeTestApp();
    const dialect = (ctx.db as unknown as { dialect: { sqlToQuery(s: unknown): { sql: string; params: unknown[] } } })
      .dialect;
    const searchPlan = (search: string) =>
      plan(ctx, { toSQL: () => dialect.sqlToQuery(ticketSearch(search).getSQL()) });
    for (const search of ["joão", "ped", "5511", 'a "b" (c) * d:e', "jo", "x"])
      expect(fullScans(searchPlan(search))).toEqual([]);
    const steps = searchPlan("joão pedido");
    expect(steps.some((d) => d.includes("messages_fts"))).toBe(true);
    expect(steps.some((d) => d.includes("contacts_fts"))).toBe(true);
  });

  test("the search inside a conversation reads the messages of its tickets, never the whole table", async () => {
    const ctx = await makeTestApp();
    const steps = plan(ctx, historySearchQuery(ctx.db, [1, 2], '"pedido"*'));
    expect(steps.some((d) => d.includes("messages_fts"))).toBe(true);
    expect(fullScans(steps)).toEqual([]);
  });
});
