// @engine each
import { one as oneRow, first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  contacts,
  messages,
  queues,
  tags,
  ticketTags,
  tickets,
  users,
  connections,
  type TicketRow,
} from "../src/db/tables";
import { BASE, call, loginAs, makeTestApp, type TestContext } from "./helpers";

let seq = 0;
async function contact(
  ctx: TestContext,
  name = `Contact ${++seq}`,
  number = `5511988${String(++seq).padStart(6, "0")}`,
) {
  return await oneRow(ctx.db.insert(contacts).values({ name, number }).returning());
}
async function ticket(ctx: TestContext, values: Partial<TicketRow> = {}) {
  const contactId = values.contactId ?? (await contact(ctx)).id;
  return await oneRow(
    ctx.db
      .insert(tickets)
      .values({ status: "pending", ...values, contactId })
      .returning(),
  );
}
const queue = async (ctx: TestContext, name: string) =>
  await oneRow(
    ctx.db
      .insert(queues)
      .values({ name, color: `#${name}` })
      .returning(),
  );
const ids = (res: { json: { tickets: { id: number }[] } }) => res.json.tickets.map((t) => t.id).sort((a, b) => a - b);

describe("GET /tickets", () => {
  test("an agent lists only their queues, queue-less tickets and their own, even when asking for other queues or showAll", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const { user, token } = await loginAs(ctx, { queueIds: [a.id] });
    const mine = await ticket(ctx, { queueId: a.id });
    const none = await ticket(ctx);
    const other = await ticket(ctx, { queueId: b.id });
    const assigned = await ticket(ctx, { queueId: b.id, status: "open", userId: user.id });
    const res = await call(
      ctx.app,
      "GET",
      `/api/tickets?showAll=true&queueIds=${encodeURIComponent(JSON.stringify([a.id, b.id]))}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([mine.id, none.id, assigned.id].sort((x, y) => x - y));
    expect(ids(res)).not.toContain(other.id);
    const show = await call(ctx.app, "GET", `/api/tickets/${other.id}`, { token });
    expect(show).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
  });

  test("an agent without queues sees only queue-less tickets and tickets assigned to them", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const { user, token } = await loginAs(ctx);
    const none = await ticket(ctx);
    const assigned = await ticket(ctx, { queueId: a.id, status: "open", userId: user.id });
    await ticket(ctx, { queueId: a.id });
    expect(ids(await call(ctx.app, "GET", "/api/tickets", { token }))).toEqual([none.id, assigned.id]);
  });

  test("the open tab shows mine or pending; admins with showAll see everything of the picked queues plus queue-less", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const { user, token } = await loginAs(ctx, { queueIds: [a.id] });
    const admin = await loginAs(ctx, { profile: "admin" });
    const pending = await ticket(ctx, { queueId: a.id });
    const mine = await ticket(ctx, { queueId: a.id, status: "open", userId: user.id });
    const theirs = await ticket(ctx, { queueId: a.id, status: "open", userId: admin.user.id });
    const inB = await ticket(ctx, { queueId: b.id, status: "open", userId: admin.user.id });
    expect(ids(await call(ctx.app, "GET", "/api/tickets", { token }))).toEqual([pending.id, mine.id]);
    expect(ids(await call(ctx.app, "GET", "/api/tickets?status=open", { token }))).toEqual([mine.id]);
    const all = await call(ctx.app, "GET", `/api/tickets?showAll=true&queueIds=${JSON.stringify([a.id])}`, {
      token: admin.token,
    });
    expect(ids(all)).toEqual([pending.id, mine.id, theirs.id]);
    expect(ids(await call(ctx.app, "GET", "/api/tickets?showAll=true", { token: admin.token }))).toContain(inB.id);
  });

  test("40 per page ordered by updatedAt desc, hasMore true then false", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    for (let i = 0; i < 45; i++) await ticket(ctx, { updatedAt: new Date(1_700_000_000_000 + i * 1000) });
    const first = await call(ctx.app, "GET", "/api/tickets?showAll=true", { token });
    expect(first.json).toMatchObject({ count: 45, hasMore: true });
    expect(first.json.tickets).toHaveLength(40);
    const times = first.json.tickets.map((t: { updatedAt: string }) => Date.parse(t.updatedAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const second = await call(ctx.app, "GET", "/api/tickets?showAll=true&pageNumber=2", { token });
    expect(second.json).toMatchObject({ count: 45, hasMore: false });
    expect(second.json.tickets).toHaveLength(5);
  });

  test("search matches contact name, number and message bodies, case-insensitively, and composes with status", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const byName = await ticket(ctx, { contactId: (await contact(ctx, "Maria Souza", "5511911110000")).id });
    const byNumber = await ticket(ctx, { contactId: (await contact(ctx, "Joao", "5511977770000")).id });
    const byBody = await ticket(ctx);
    await ctx.db.insert(messages).values({ wid: "m1", ticketId: byBody.id, body: "Pedido SOUZA-77" });
    await ticket(ctx, { contactId: (await contact(ctx, "Other", "5511900000001")).id });
    const search = async (q: string, extra = "") =>
      ids(
        await call(ctx.app, "GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent(q)}${extra}`, { token }),
      );
    expect(await search("  souza ")).toEqual([byName.id, byBody.id]);
    expect(await search("97777")).toEqual([byNumber.id]);
    expect(await search("souza", "&status=open")).toEqual([]);
    expect(await search("100%_")).toEqual([]);
  });

  test("tags filter keeps tickets carrying all the tags; unread and date filters compose", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const t1 = await oneRow(ctx.db.insert(tags).values({ name: "vip" }).returning());
    const t2 = await oneRow(ctx.db.insert(tags).values({ name: "late" }).returning());
    const both = await ticket(ctx, { unreadMessages: 2 });
    const one = await ticket(ctx);
    await ctx.db.insert(ticketTags).values([
      { ticketId: both.id, tagId: t1.id },
      { ticketId: both.id, tagId: t2.id },
      { ticketId: one.id, tagId: t1.id },
    ]);
    const q = (s: string) => call(ctx.app, "GET", `/api/tickets?showAll=true&${s}`, { token });
    expect(ids(await q(`tags=${JSON.stringify([t1.id, t2.id])}`))).toEqual([both.id]);
    expect(ids(await q(`tags=${JSON.stringify([t1.id])}`))).toEqual([both.id, one.id]);
    expect(ids(await q("withUnreadMessages=true"))).toEqual([both.id]);
    const today = new Date().toISOString();
    expect(ids(await q(`date=${today}`))).toEqual([both.id, one.id]);
    expect(ids(await q("date=2001-01-01"))).toEqual([]);
  });

  test("a tag on most tickets counts exactly what carries it, in each tab and across every status", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const common = await oneRow(ctx.db.insert(tags).values({ name: "common" }).returning());
    // 90 of 100 tickets carry the tag: more than a list reads as a set.
    const statuses = ["open", "pending", "closed", "closed"] as const;
    const made = [];
    for (let i = 0; i < 100; i++) made.push(await ticket(ctx, { status: statuses[i % 4] }));
    const carriers = made.slice(10);
    await ctx.db.insert(ticketTags).values(carriers.map((t) => ({ ticketId: t.id, tagId: common.id })));
    const count = async (s: string) =>
      (await call(ctx.app, "GET", `/api/tickets?showAll=true&tags=${JSON.stringify([common.id])}${s}`, { token })).json
        .count;
    expect(await count("")).toBe(90);
    for (const status of ["open", "pending", "closed"] as const)
      expect(await count(`&status=${status}`)).toBe(carriers.filter((t) => t.status === status).length);
  });

  test("ids filter as a JSON array of numbers or numeric strings; an empty parameter filters nothing, [] keeps only queue-less", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const { token } = await loginAs(ctx, { profile: "admin" });
    const inA = await ticket(ctx, { queueId: a.id });
    const none = await ticket(ctx);
    const q = async (s: string) => ids(await call(ctx.app, "GET", `/api/tickets?showAll=true&${s}`, { token }));
    expect(await q(`queueIds=${JSON.stringify([String(a.id)])}`)).toEqual([inA.id, none.id]);
    expect(await q("queueIds=")).toEqual([inA.id, none.id]);
    expect(await q("queueIds=[]")).toEqual([none.id]);
    expect(await q("tags=")).toEqual([inA.id, none.id]);
  });

  test("a bad list parameter answers VALIDATION with that field and the rule code", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    for (const [qs, field] of [
      ["queueIds=notjson", "queueIds"],
      ["queueIds=%7B%7D", "queueIds"],
      ["tags=[-1]", "tags"],
      ["tags=[1.5]", "tags"],
      ["showAll=maybe", "showAll"],
      ["withUnreadMessages=1", "withUnreadMessages"],
      ["status=archived", "status"],
    ]) {
      const res = await call(ctx.app, "GET", `/api/tickets?${qs}`, { token });
      expect({ qs, status: res.status, json: res.json }).toEqual({
        qs,
        status: 400,
        json: { error: "VALIDATION", field, rule: "invalid", message: "Invalid value" },
      });
    }
  });

  test("odd parameters are refused with 400, never 500", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    for (const qs of [
      "queueIds=notjson",
      "queueIds=%7B%7D",
      "tags=[-1]",
      "status=archived",
      "pageNumber=0",
      "date=yesterday",
      "showAll=maybe",
    ]) {
      const res = await call(ctx.app, "GET", `/api/tickets?${qs}`, { token });
      expect(res.status).toBe(400);
    }
    expect((await call(ctx.app, "GET", "/api/tickets")).status).toBe(401);
  });
});

describe("ticket routes", () => {
  test("GET /tickets/:id shows relations and contact extra info; unknown → 404; bad id → 400", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const t = await ticket(ctx);
    expect(await call(ctx.app, "GET", `/api/tickets/${t.id}`, { token })).toMatchObject({
      status: 200,
      json: { id: t.id, contact: { extraInfo: [] }, tags: [] },
    });
    expect(await call(ctx.app, "GET", "/api/tickets/999", { token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TICKET_FOUND" },
    });
    expect((await call(ctx.app, "GET", "/api/tickets/abc", { token })).status).toBe(400);
  });

  test("PUT accepts, returns and closes; events drop the ticket from the old list; bad bodies are 400", async () => {
    const ctx = await makeTestApp();
    const { user, token } = await loginAs(ctx);
    const t = await ticket(ctx);
    const accept = await call(ctx.app, "PUT", `/api/tickets/${t.id}`, {
      token,
      body: { status: "open", userId: user.id },
    });
    expect(accept).toMatchObject({ status: 200, json: { status: "open", userId: user.id, user: { id: user.id } } });
    expect(
      ctx.hub.to("status:pending", "ticket").some((e) => e.payload.action === "delete" && e.payload.ticketId === t.id),
    ).toBe(true);
    expect(ctx.hub.to("status:open", "ticket").some((e) => e.payload.action === "update")).toBe(true);
    const back = await call(ctx.app, "PUT", `/api/tickets/${t.id}`, {
      token,
      body: { status: "pending", userId: null },
    });
    expect(back.json).toMatchObject({ status: "pending", userId: null });
    expect((await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { status: "nope" } })).status).toBe(400);
    expect((await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { userId: "x" } })).status).toBe(400);
    expect(await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { userId: 999 } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_USER_FOUND" },
    });
    expect(await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { queueId: 999 } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_QUEUE_FOUND" },
    });
  });

  test("POST creates on the default connection with the user's only queue; a second one is ERR_OTHER_OPEN_TICKET", async () => {
    const ctx = await makeTestApp();
    const q = await queue(ctx, "A");
    const { user, token } = await loginAs(ctx, { queueIds: [q.id] });
    const c = await contact(ctx);
    expect(
      await call(ctx.app, "POST", "/api/tickets", {
        token,
        body: { contactId: c.id, userId: user.id, status: "open" },
      }),
    ).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_DEF_WAPP_FOUND" },
    });
    const wa = await oneRow(ctx.db.insert(connections).values({ name: "W", isDefault: true }).returning());
    const created = await call(ctx.app, "POST", "/api/tickets", {
      token,
      body: { contactId: c.id, userId: user.id, status: "open" },
    });
    expect(created).toMatchObject({
      status: 200,
      json: { status: "open", userId: user.id, queueId: q.id, whatsappId: wa.id, contact: { id: c.id } },
    });
    expect(ctx.hub.to("status:open", "ticket").at(-1)!.payload).toMatchObject({
      action: "update",
      ticket: { id: created.json.id },
    });
    const again = await call(ctx.app, "POST", "/api/tickets", { token, body: { contactId: c.id, status: "open" } });
    expect(again).toMatchObject({ status: 400, json: { error: "ERR_OTHER_OPEN_TICKET" } });
    expect(await call(ctx.app, "POST", "/api/tickets", { token, body: { contactId: 999 } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CONTACT_FOUND" },
    });
    expect((await call(ctx.app, "POST", "/api/tickets", { token, body: {} })).status).toBe(400);
  });

  test("a user's own default connection wins over the global default", async () => {
    const ctx = await makeTestApp();
    await ctx.db.insert(connections).values({ name: "Global", isDefault: true });
    const own = await oneRow(ctx.db.insert(connections).values({ name: "Own" }).returning());
    const { user, token } = await loginAs(ctx);
    await ctx.db.update(users).set({ whatsappId: own.id }).where(eq(users.id, user.id));
    const res = await call(ctx.app, "POST", "/api/tickets", { token, body: { contactId: (await contact(ctx)).id } });
    expect(res.json).toMatchObject({ whatsappId: own.id, status: "open", userId: user.id });
  });

  test("DELETE needs ticket-options:deleteTicket, removes messages and tells every room", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const admin = await loginAs(ctx, { profile: "admin" });
    const t = await ticket(ctx);
    await ctx.db.insert(messages).values({ wid: "x", ticketId: t.id, body: "b" });
    expect(await call(ctx.app, "DELETE", `/api/tickets/${t.id}`, { token: agent.token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(await call(ctx.app, "DELETE", `/api/tickets/${t.id}`, { token: admin.token })).toMatchObject({
      status: 200,
      json: { message: "ticket deleted" },
    });
    expect(await ctx.db.select().from(messages)).toHaveLength(0);
    expect(ctx.hub.to(`ticket:${t.id}`, "ticket")[0]!.payload).toEqual({ action: "delete", ticketId: t.id });
    expect((await call(ctx.app, "DELETE", `/api/tickets/${t.id}`, { token: admin.token })).status).toBe(404);
  });

  test("GET /ticketfind/:phone prefers the active visible ticket, accepts the 9th-digit variant, else 404", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const c = await contact(ctx, "Br", "5511987654321");
    await ticket(ctx, { contactId: c.id, status: "closed" });
    const active = await ticket(ctx, { contactId: c.id, status: "pending", updatedAt: new Date(0) });
    expect(await call(ctx.app, "GET", "/api/ticketfind/+55 (11) 98765-4321", { token })).toMatchObject({
      status: 200,
      json: { ticketId: active.id },
    });
    expect((await call(ctx.app, "GET", "/api/ticketfind/551187654321", { token })).json).toEqual({
      ticketId: active.id,
    });
    expect(await call(ctx.app, "GET", "/api/ticketfind/5599999999999", { token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TICKET_FOUND" },
    });
  });

  test("POST /tags/sync replaces the ticket's tags and publishes the ticket; unknown tags 404; other queue 403", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const { token } = await loginAs(ctx, { queueIds: [a.id] });
    const t = await ticket(ctx, { queueId: a.id });
    const hidden = await ticket(ctx, { queueId: b.id });
    const t1 = await oneRow(ctx.db.insert(tags).values({ name: "one" }).returning());
    const t2 = await oneRow(ctx.db.insert(tags).values({ name: "two" }).returning());
    await ctx.db.insert(ticketTags).values({ ticketId: t.id, tagId: t1.id });
    const res = await call(ctx.app, "POST", "/api/tags/sync", {
      token,
      body: { ticketId: t.id, tags: [{ id: t2.id }] },
    });
    expect(res).toMatchObject({ status: 200, json: { tags: [{ id: t2.id }] } });
    expect(ctx.hub.to(`ticket:${t.id}`, "ticket").at(-1)!.payload).toMatchObject({
      action: "update",
      ticket: { tags: [{ id: t2.id }] },
    });
    expect(
      await call(ctx.app, "POST", "/api/tags/sync", { token, body: { ticketId: t.id, tags: [{ id: 999 }] } }),
    ).toMatchObject({ status: 404, json: { error: "ERR_NO_TAG_FOUND" } });
    expect(
      (await call(ctx.app, "POST", "/api/tags/sync", { token, body: { ticketId: hidden.id, tags: [] } })).status,
    ).toBe(403);
  });

  test("an agent never gets events of another queue's ticket", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const admin = await loginAs(ctx, { profile: "admin" });
    const t = await ticket(ctx, { queueId: b.id });
    await call(ctx.app, "PUT", `/api/tickets/${t.id}`, {
      token: admin.token,
      body: { status: "open", userId: admin.user.id },
    });
    const rooms = ctx.hub.named("ticket").map((e) => e.room as string);
    expect(rooms.some((r) => r.startsWith(`queue:${a.id}:`) || r.startsWith("queue:none:"))).toBe(false);
  });
});

describe("viewing a ticket", () => {
  const LONG_AGO = new Date(1_700_000_000_000);

  /** An open ticket of `userId`, last active long ago, with unread customer messages, below a newer one. */
  async function unreadTicket(ctx: TestContext, userId: number) {
    const t = await ticket(ctx, { status: "open", userId, unreadMessages: 2, updatedAt: LONG_AGO });
    await ctx.db.insert(messages).values([
      { wid: `hi-${t.id}`, ticketId: t.id, contactId: t.contactId, body: "hi", fromMe: false, createdAt: LONG_AGO },
      {
        wid: `there-${t.id}`,
        ticketId: t.id,
        contactId: t.contactId,
        body: "there?",
        fromMe: false,
        createdAt: LONG_AGO,
      },
    ]);
    const newer = await ticket(ctx, { status: "open", userId, updatedAt: new Date(LONG_AGO.getTime() + 60_000) });
    return { t, newer };
  }
  /** What viewing may change and what it must not, as plain values (a Date would match any other Date). */
  const state = async (ctx: TestContext, id: number) => {
    const row = (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, id))))!;
    return { unreadMessages: row.unreadMessages, updatedAt: row.updatedAt.getTime() };
  };
  const VIEWED = { unreadMessages: 0, updatedAt: LONG_AGO.getTime() };

  test("opening its messages marks it read but keeps its updatedAt and its place in the list", async () => {
    const ctx = await makeTestApp();
    const { user, token } = await loginAs(ctx);
    const { t, newer } = await unreadTicket(ctx, user.id);
    ctx.clock.advance(3_600_000);
    const opened = await call(ctx.app, "GET", `/api/messages/${t.id}`, { token });
    expect(opened.status).toBe(200);
    expect(await state(ctx, t.id)).toEqual(VIEWED);
    expect(opened.json.ticket).toMatchObject({ unreadMessages: 0, updatedAt: LONG_AGO.toISOString() });
    const list = await call(ctx.app, "GET", "/api/tickets?status=open", { token });
    expect(list.json.tickets.map((x: { id: number }) => x.id)).toEqual([newer.id, t.id]);
  });

  test("the chat page of a ticket marks it read but keeps its updatedAt", async () => {
    const ctx = await makeTestApp();
    const { user, cookie } = await loginAs(ctx);
    const { t } = await unreadTicket(ctx, user.id);
    const res = await ctx.app.handle(new Request(`${BASE}/tickets/${t.id}`, { headers: { cookie } }));
    expect(res.status).toBe(200);
    expect(await state(ctx, t.id)).toEqual(VIEWED);
  });

  test("a PUT that changes nothing marks it read but keeps its updatedAt; a real change moves it to now", async () => {
    const ctx = await makeTestApp();
    const { user, token } = await loginAs(ctx);
    const { t } = await unreadTicket(ctx, user.id);
    ctx.clock.advance(3_600_000);
    await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: {} });
    await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { status: "open", userId: user.id } });
    expect(await state(ctx, t.id)).toEqual(VIEWED);
    await call(ctx.app, "PUT", `/api/tickets/${t.id}`, { token, body: { status: "pending" } });
    expect((await state(ctx, t.id)).updatedAt).toBe(ctx.clock.now());
  });
});
