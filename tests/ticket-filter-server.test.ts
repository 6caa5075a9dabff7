// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { contacts, queues, tags, ticketTags, tickets, type TicketRow } from "../src/db/tables";
import type { Ticket, TicketStatus } from "../src/shared/contracts";
import { type TicketListFilter, ticketInList } from "../src/shared/ticket-filter";
import { call, loginAs, makeTestApp, type TestContext } from "./helpers";

/** Every combination of status, assignee, queue and tags over two queues and three tags. */
async function seed(ctx: TestContext, userIds: number[]) {
  const [q1, q2] = [
    await one(ctx.db.insert(queues).values({ name: "Q0", color: "#a1" }).returning()),
    await one(ctx.db.insert(queues).values({ name: "Q1", color: "#a2" }).returning()),
  ];
  const tagIds: number[] = [];
  for (const name of ["red", "green", "blue"])
    tagIds.push((await one(ctx.db.insert(tags).values({ name }).returning())).id);
  const tagSets = [[], [tagIds[0]!], [tagIds[1]!], [tagIds[0]!, tagIds[1]!], [tagIds[0]!, tagIds[1]!, tagIds[2]!]];
  let n = 0;
  for (const status of ["open", "pending", "closed"] as TicketStatus[])
    for (const userId of [null, ...userIds])
      for (const queueId of [null, q1!.id, q2!.id])
        for (const tagSet of tagSets) {
          const contact = await one(
            ctx.db
              .insert(contacts)
              .values({ name: `C${++n}`, number: `55119${String(n).padStart(8, "0")}` })
              .returning(),
          );
          const values: Partial<TicketRow> = { status, userId, queueId, contactId: contact.id };
          const row = await one(
            ctx.db
              .insert(tickets)
              .values({ ...values, contactId: contact.id })
              .returning(),
          );
          for (const tagId of tagSet) await ctx.db.insert(ticketTags).values({ ticketId: row.id, tagId });
        }
  return { queueIds: [q1!.id, q2!.id], tagIds };
}

async function listAll(ctx: TestContext, token: string, filter: TicketListFilter): Promise<Ticket[]> {
  const params = new URLSearchParams({ showAll: String(filter.showAll ?? false) });
  if (filter.status) params.set("status", filter.status);
  if (filter.queueIds) params.set("queueIds", JSON.stringify(filter.queueIds));
  if (filter.tags) params.set("tags", JSON.stringify(filter.tags));
  const found: Ticket[] = [];
  for (let page = 1; ; page++) {
    const res = await call(ctx.app, "GET", `/api/tickets?${params}&pageNumber=${page}`, { token });
    expect(res.status).toBe(200);
    found.push(...res.json.tickets);
    if (!res.json.hasMore) return found;
  }
}

const ids = (list: { id: number }[]) => list.map((t) => t.id).sort((a, b) => a - b);

describe("the shared ticket filter agrees with GET /tickets", () => {
  test("for an admin and an agent, over every status, show-all, queue and tag filter", async () => {
    const ctx = await makeTestApp();
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx, {});
    const { queueIds, tagIds } = await seed(ctx, [admin.user.id, agent.user.id]);
    const { token: agentToken, user: agentRow } = await loginAs(ctx, { queueIds: [queueIds[0]!] });
    const viewers = [
      { token: admin.token, viewer: { id: admin.user.id, profile: "admin", queueIds: [] } },
      { token: agent.token, viewer: { id: agent.user.id, profile: "user", queueIds: [] } },
      { token: agentToken, viewer: { id: agentRow.id, profile: "user", queueIds: [queueIds[0]!] } },
    ];
    const everyTicket = await listAll(ctx, admin.token, { showAll: true });
    const filters: TicketListFilter[] = [];
    for (const status of [undefined, "open", "pending", "closed"] as const)
      for (const showAll of [false, true])
        for (const queues of [undefined, [queueIds[0]!], queueIds])
          for (const tags of [undefined, [tagIds[0]!], [tagIds[0]!, tagIds[1]!]])
            filters.push({ status, showAll, queueIds: queues, tags });
    for (const { token, viewer } of viewers)
      for (const filter of filters) {
        const expected = everyTicket.filter((t) => ticketInList(t, filter, viewer));
        expect({ filter, viewer: viewer.id, ids: ids(await listAll(ctx, token, filter)) }).toEqual({
          filter,
          viewer: viewer.id,
          ids: ids(expected),
        });
      }
  });
});
